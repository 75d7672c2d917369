// The description is HTML. The API already reduces authors' and contributors' HTML to a safe
// allow-list, but editors may store any HTML (docs/api.md §7), so the page keeps only harmless markup
// itself before showing it: a parsed, inert <template>, no scripts, styles, frames or forms, no
// event handlers, and links only to http(s), mailto and tel.
(function () {
  'use strict';
  const keep = new Set(['A', 'P', 'BR', 'STRONG', 'B', 'EM', 'I', 'U', 'S', 'UL', 'OL', 'LI', 'H2', 'H3',
    'H4', 'H5', 'H6', 'BLOCKQUOTE', 'PRE', 'CODE', 'SPAN', 'DIV', 'IMG', 'FIGURE', 'FIGCAPTION', 'HR',
    'TABLE', 'THEAD', 'TBODY', 'TR', 'TH', 'TD', 'SMALL', 'SUB', 'SUP', 'ABBR', 'DL', 'DT', 'DD']);
  const attributes = { A: ['href', 'title'], IMG: ['src', 'alt', 'width', 'height'], ABBR: ['title'],
    TD: ['colspan', 'rowspan'], TH: ['colspan', 'rowspan', 'scope'] };
  const safeUrl = /^(https?:|mailto:|tel:|[^:]*$)/i;

  function clean(node) {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === Node.TEXT_NODE) continue;
      if (child.nodeType !== Node.ELEMENT_NODE || !keep.has(child.tagName)) {
        // Unknown elements give up their text (e.g. <font>), dangerous ones everything.
        if (child.nodeType === Node.ELEMENT_NODE && !/^(SCRIPT|STYLE|IFRAME|OBJECT|EMBED|FORM|TEMPLATE|SVG|MATH)$/i.test(child.tagName)) {
          clean(child);
          child.replaceWith(...Array.from(child.childNodes));
        } else {
          child.remove();
        }
        continue;
      }
      const allowed = attributes[child.tagName] || [];
      for (const a of Array.from(child.attributes)) {
        const ok = allowed.includes(a.name) && !((a.name === 'href' || a.name === 'src') && !safeUrl.test(a.value.trim()));
        if (!ok) child.removeAttribute(a.name);
      }
      if (child.tagName === 'A') { child.target = '_blank'; child.rel = 'noopener noreferrer'; }
      clean(child);
    }
  }

  // fragment(html): a DocumentFragment of the cleaned HTML.
  function fragment(html) {
    const t = document.createElement('template');
    t.innerHTML = String(html || '');
    clean(t.content);
    return t.content;
  }

  window.CalWeb = window.CalWeb || {};
  window.CalWeb.sanitize = { fragment };
})();
