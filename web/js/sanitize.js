// The description is HTML. The API already reduces authors' and contributors' HTML to a safe
// allow-list, but editors may store any HTML (docs/api.md §7), so the page keeps only harmless
// markup itself before showing it, with DOMPurify (vendor/purify.min.js): the tags and attributes
// below, links only to http(s), mailto and tel, and links open in a new tab.
(function () {
  'use strict';
  const config = {
    ALLOWED_TAGS: ['a', 'p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'ul', 'ol', 'li', 'h2', 'h3', 'h4', 'h5',
      'h6', 'blockquote', 'pre', 'code', 'span', 'div', 'img', 'figure', 'figcaption', 'hr', 'table', 'thead',
      'tbody', 'tr', 'th', 'td', 'small', 'sub', 'sup', 'abbr', 'dl', 'dt', 'dd'],
    ALLOWED_ATTR: ['href', 'title', 'src', 'alt', 'width', 'height', 'colspan', 'rowspan', 'scope'],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|tel:|[^:]*$)/i,
    RETURN_DOM_FRAGMENT: true,
  };
  let hooked = false;

  // fragment(html): a DocumentFragment of the cleaned HTML.
  function fragment(html) {
    if (!hooked) {
      window.DOMPurify.addHook('afterSanitizeAttributes', (node) => {
        if (node.tagName === 'A') { node.setAttribute('target', '_blank'); node.setAttribute('rel', 'noopener noreferrer'); }
      });
      hooked = true;
    }
    return window.DOMPurify.sanitize(String(html || ''), config);
  }

  window.CalWeb = window.CalWeb || {};
  window.CalWeb.sanitize = { fragment };
})();
