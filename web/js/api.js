// Reading the REST API: every page of a list (page 1 says how many there are in
// X-WP-TotalPages; the others are fetched in parallel), and the events of a date range with only
// the fields the calendar grid needs (_fields), so a month of 500 events stays small.
(function () {
  'use strict';
  const C = window.CalWeb;
  // The service clamps per_page to its per_page_max (50 by default); the totals follow suit.
  const perPage = 50;
  const gridFields = 'id,title,all_day,start_date,end_date,utc_start_date,utc_end_date,timezone,categories.slug,series_id';
  // What the panel needs of a series to say how it recurs (recurrence.js).
  const seriesFields = 'id,recurrence,start_date,timezone,all_day';

  function url(ns, path, params) {
    const u = new URL(ns + path);
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') u.searchParams.set(k, v);
    u.searchParams.set('_locale', C.i18n.apiLocale());
    return u.href;
  }

  async function getJson(href, signal) {
    const r = await fetch(href, { signal, headers: { Accept: 'application/json' } });
    if (!r.ok) throw new Error(`${r.status} ${href}`);
    return { body: await r.json(), pages: Number(r.headers.get('X-WP-TotalPages')) || 1 };
  }

  // listAll(ns, path, key, params): the concatenated `key` arrays of every page. The promise's
  // `issued` settles once every page is requested (app.js lets the network work meanwhile).
  function listAll(ns, path, key, params, signal) {
    let issued;
    const requested = new Promise((resolve) => { issued = resolve; });
    const all = (async () => {
      const p = Object.assign({ per_page: perPage }, params);
      const rest = [];
      try {
        const first = await getJson(url(ns, path, Object.assign({}, p, { page: 1 })), signal);
        for (let page = 2; page <= first.pages; page++) {
          rest.push(getJson(url(ns, path, Object.assign({}, p, { page })), signal));
        }
        rest.unshift(first);
      } finally {
        issued();
      }
      return (await Promise.all(rest)).flatMap((r) => r.body[key] || []);
    })();
    all.issued = requested;
    return all;
  }

  // events(ns, start, end, filters): events overlapping [start, end) (Date objects): starting
  // before the end and ending after the start, compared as exact instants (strict_dates).
  function events(ns, start, end, filters, signal) {
    return listAll(ns, '/events', 'events', Object.assign({
      starts_before: end.toISOString(), ends_after: start.toISOString(), strict_dates: 'true',
      _fields: gridFields,
    }, filters), signal);
  }

  function event(ns, id) {
    return getJson(url(ns, `/events/${encodeURIComponent(id)}`, {})).then((r) => r.body);
  }

  // series(ns, id): the series' recurrence lines and first start, fetched once per series and
  // page (every occurrence's panel asks for its series; a failed fetch is tried again next time).
  const seriesCache = new Map();
  function series(ns, id) {
    const key = `${ns} ${id}`;
    if (!seriesCache.has(key)) {
      const p = getJson(url(ns, `/events/${encodeURIComponent(id)}`, { _fields: seriesFields })).then((r) => r.body);
      p.catch(() => seriesCache.delete(key));
      seriesCache.set(key, p);
    }
    return seriesCache.get(key);
  }

  C.api = { listAll, events, event, series, url };
})();
