// The filter bar: the category, tag, venue and organizer choices (filled from the API), the
// search box, the URL that keeps them (reload and share show the same calendar) and the
// Subscribe link, which is the iCalendar feed of exactly these filters as webcal://.
(function () {
  'use strict';
  const C = window.CalWeb;
  const selects = {
    categories: { id: 'cal-category', path: '/categories', key: 'categories', value: 'slug', label: 'name' },
    tags: { id: 'cal-tag', path: '/tags', key: 'tags', value: 'slug', label: 'name' },
    venue: { id: 'cal-venue', path: '/venues', key: 'venues', value: 'id', label: 'venue' },
    organizer: { id: 'cal-organizer', path: '/organizers', key: 'organizers', value: 'id', label: 'organizer' },
  };

  function fill(select, items, spec, chosen) {
    const all = new Option(C.i18n.t('all'), '');
    all.dataset.i18n = 'all';
    select.replaceChildren(all, ...items.map((i) => new Option(i[spec.label], String(i[spec.value]))));
    select.value = chosen || '';
    if (select.value !== (chosen || '')) select.value = '';
  }

  // The filters of the URL, which count until their list is filled (the calendar does not wait
  // for the four lists: its first fetch already uses them).
  let pending = {};

  // init(initial): the URL's filters, in force before the lists are there.
  function init(initial) {
    pending = Object.assign({}, initial);
    document.getElementById('cal-search').value = initial.search || '';
  }

  // load(ns): fills the four lists; a list that fails stays at "All".
  function load(ns) {
    return Promise.all(Object.entries(selects).map(async ([name, spec]) => {
      const select = document.getElementById(spec.id);
      fill(select, [], spec, '');
      try {
        const items = await C.api.listAll(ns, spec.path, spec.key, { _fields: `${spec.value},${spec.label}` });
        fill(select, items, spec, pending[name]);
      } catch (e) {
        select.disabled = true;
      }
      delete pending[name];
    }));
  }

  // current(): the API parameters of the chosen filters.
  function current() {
    const f = {};
    for (const [name, spec] of Object.entries(selects)) {
      const v = name in pending ? pending[name] : document.getElementById(spec.id).value;
      if (v) f[name] = v;
    }
    const s = document.getElementById('cal-search').value.trim();
    if (s) f.search = s;
    return f;
  }

  // subscribeUrl(ns, filters): the feed GET {ns}/events?ical=1&<filters> with webcal:// (calendar
  // apps subscribe to it and refresh it themselves).
  function subscribeUrl(ns, filters) {
    const u = new URL(ns + '/events');
    u.searchParams.set('ical', '1');
    for (const [k, v] of Object.entries(filters)) u.searchParams.set(k, v);
    return u.href.replace(/^https?:/, 'webcal:');
  }

  // sync(ns, extra): writes the filters (and extra, e.g. lang and view) into the address bar and
  // the Subscribe link.
  function sync(ns, extra) {
    const filters = current();
    const a = document.getElementById('cal-subscribe');
    a.href = subscribeUrl(ns, filters);
    a.title = C.i18n.t('subscribeHint');
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(Object.assign({}, extra, filters))) if (v) q.set(k, v);
    history.replaceState(null, '', '?' + q.toString());
  }

  // onChange(fn): fn() after a list changes or the search text rests for 300 ms.
  function onChange(fn) {
    for (const spec of Object.values(selects)) document.getElementById(spec.id).addEventListener('change', fn);
    let timer = 0;
    document.getElementById('cal-search').addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(fn, 300);
    });
  }

  C.filters = { init, load, current, sync, onChange, subscribeUrl };
})();
