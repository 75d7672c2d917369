// The page's settings: calendar-config.json beside the page (site owners edit it, never code),
// then the URL's parameters on top (an iframe embed chooses view, language and filters there).
(function () {
  'use strict';
  const defaults = {
    restRoot: 'api',          // relative to the page: …/calendar/ beside …/calendar/api
    defaultView: 'dayGridMonth',
    phoneView: 'listMonth',   // below 640 px a month grid is unreadable
    firstDay: 1,
    defaultColor: '#1a5fb4',
    categoryColors: {},
  };
  const views = ['dayGridMonth', 'timeGridWeek', 'timeGridDay', 'listMonth'];

  async function load() {
    const config = Object.assign({}, defaults);
    try {
      const r = await fetch('calendar-config.json', { cache: 'no-cache' });
      if (r.ok) Object.assign(config, await r.json());
    } catch (e) {
      // No or broken config file: the defaults serve the standard layout.
    }
    const q = new URLSearchParams(location.search);
    config.lang = q.get('lang') || '';
    config.date = /^\d{4}-\d{2}(-\d{2})?$/.test(q.get('date') || '') ? q.get('date') : '';
    if (views.includes(q.get('view'))) config.defaultView = config.phoneView = q.get('view');
    if (!views.includes(config.defaultView)) config.defaultView = defaults.defaultView;
    if (!views.includes(config.phoneView)) config.phoneView = config.defaultView;
    config.filters = {};
    for (const name of ['categories', 'tags', 'venue', 'organizer', 'search']) {
      if (q.get(name)) config.filters[name] = q.get(name);
    }
    // The namespace URL every request starts from; the REST root may be relative to the page.
    config.ns = new URL(String(config.restRoot).replace(/\/*$/, '/'), location.href).href + 'cal/events/v1';
    return config;
  }

  window.CalWeb = window.CalWeb || {};
  window.CalWeb.config = { load, views };
})();
