// The event panel: a modal <dialog> (focus stays inside, Esc closes, focus returns to the event)
// with the full record, fetched when opened: dates in the event's own zone and in the viewer's,
// venue with address and map link, organizers, cost, categories and the description; for an
// occurrence of a series, how the series recurs (recurrence.js) and whether it was edited alone.
(function () {
  'use strict';
  const C = window.CalWeb;
  const t = (k) => C.i18n.t(k);

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    for (const c of children) if (c !== null && c !== undefined && c !== '') e.append(c);
    return e;
  }

  function row(label, ...content) {
    if (!content.some((c) => c !== null && c !== undefined && c !== '')) return null;
    return el('div', { class: 'cal-row' }, el('dt', {}, label), el('dd', {}, ...content));
  }

  // The wall clock of the event's zone: the API's start_date/end_date, shown as they are
  // (formatted as UTC so the browser's own zone does not move them) with the zone's name.
  function eventZoneText(e, lang) {
    const wall = (s) => new Date(s.replace(' ', 'T') + 'Z');
    const day = { dateStyle: 'full', timeZone: 'UTC' };
    if (e.all_day) return range(lang, wall(e.start_date), wall(e.end_date), day) + ` (${t('allDay')})`;
    const fmt = { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' };
    return range(lang, wall(e.start_date), wall(e.end_date), fmt) + ` (${e.timezone_abbr || e.timezone})`;
  }

  function viewerZoneText(e, lang) {
    const utc = (s) => new Date(s.replace(' ', 'T') + 'Z');
    return range(lang, utc(e.utc_start_date), utc(e.utc_end_date),
      { dateStyle: 'full', timeStyle: 'short' }) + ` (${Intl.DateTimeFormat().resolvedOptions().timeZone})`;
  }

  function range(lang, a, b, options) {
    const f = new Intl.DateTimeFormat(lang, options);
    return f.formatRange ? f.formatRange(a, b) : `${f.format(a)} – ${f.format(b)}`;
  }

  function link(href, text) {
    return el('a', { href, target: '_blank', rel: 'noopener noreferrer' }, text);
  }

  function venueBlock(v, showMapLink) {
    if (!v || Array.isArray(v) || !v.venue) return null;
    const address = [v.address, [v.zip, v.city].filter(Boolean).join(' '), v.stateprovince, v.country]
      .filter(Boolean).join(', ');
    let map = null;
    if (showMapLink && v.show_map_link !== false && (address || v.geo_lat !== null)) {
      const href = v.geo_lat !== null && v.geo_lat !== undefined
        ? `https://www.openstreetmap.org/?mlat=${v.geo_lat}&mlon=${v.geo_lng}#map=16/${v.geo_lat}/${v.geo_lng}`
        : 'https://www.openstreetmap.org/search?query=' + encodeURIComponent(address);
      map = link(href, t('map'));
      map.setAttribute('aria-label', `${t('map')}: ${v.venue}`);
    }
    return el('div', {}, el('strong', {}, v.venue), address ? el('div', {}, address) : null, map);
  }

  function organizerList(list) {
    if (!list || !list.length) return null;
    return el('ul', { class: 'cal-plain' }, ...list.map((o) => el('li', {},
      o.website ? link(o.website, o.organizer) : o.organizer,
      o.email ? el('span', {}, ' · ', link('mailto:' + o.email, o.email)) : null)));
  }

  // The lines under the dates of an occurrence: how its series recurs (the series as
  // C.api.series gives it, or null when it could not be read: the generic text), and where the
  // rule had put an occurrence edited alone.
  function recurrenceBlock(e, series, lang) {
    if (!e.series_id) return null;
    const rule = C.recurrence.describe(series || {}, lang);
    const exception = C.recurrence.exception(e, lang);
    return el('div', { class: 'cal-recurrence' }, el('div', { class: 'cal-rule' }, rule),
      exception ? el('div', { class: 'cal-exception' }, exception) : null);
  }

  function render(e, series) {
    const lang = C.i18n.lang();
    const body = document.getElementById('cal-panel-body');
    document.getElementById('cal-panel-title').textContent = e.title;
    const when = el('div', {}, el('div', { class: 'cal-when-event' }, el('span', { class: 'cal-label' }, t('eventZone') + ': '), eventZoneText(e, lang)));
    if (!e.all_day) {
      when.append(el('div', { class: 'cal-when-viewer' }, el('span', { class: 'cal-label' }, t('yourZone') + ': '), viewerZoneText(e, lang)));
    }
    const recurrence = recurrenceBlock(e, series, lang);
    if (recurrence) when.append(recurrence);
    const description = el('div', { class: 'cal-description' });
    description.append(C.sanitize.fragment(e.description));
    body.replaceChildren(
      el('dl', {},
        row(t('when'), when),
        row(t('venue'), venueBlock(e.venue, e.show_map_link !== false)),
        row(t('organizers'), organizerList(e.organizer)),
        row(t('cost'), e.cost),
        row(t('categories'), (e.categories || []).map((c) => c.name).join(', ')),
        row(t('website'), e.website && e.website !== e.url ? link(e.website, e.website) : null)),
      description);
  }

  const dialog = () => document.getElementById('cal-panel');

  // The series of an occurrence, or null when it cannot be read (the panel still shows the
  // occurrence, with the generic recurrence text).
  function seriesOf(ns, seriesId) {
    return seriesId ? C.api.series(ns, seriesId).catch(() => null) : Promise.resolve(null);
  }

  // open(ns, id, opener, seriesId): shows the panel for event id; opener gets the focus back on
  // close. seriesId (the grid knows it) lets the series be fetched beside the occurrence.
  async function open(ns, id, opener, seriesId) {
    const d = dialog();
    d.dataset.eventId = id;
    document.getElementById('cal-panel-title').textContent = t('loading');
    document.getElementById('cal-panel-body').replaceChildren();
    if (!d.open) d.showModal();
    d.onclose = () => { if (opener && opener.isConnected) opener.focus(); };
    try {
      const early = seriesOf(ns, seriesId);
      const e = await C.api.event(ns, id);
      const series = await (e.series_id && String(e.series_id) !== String(seriesId) ? seriesOf(ns, e.series_id) : early);
      if (d.dataset.eventId === String(id)) render(e, series);
    } catch (err) {
      document.getElementById('cal-panel-title').textContent = t('failed');
    }
  }

  // openDay(ns, day, events, opener): the panel as the list of a day's events (the month grid's
  // "+N more", app.js), each a button that opens that event's panel; day is YYYY-MM-DD and
  // events FullCalendar event inputs.
  function openDay(ns, day, events, opener) {
    const d = dialog();
    const lang = C.i18n.lang();
    const [y, m, dd] = day.split('-').map(Number);
    d.dataset.eventId = `day:${day}`;
    document.getElementById('cal-panel-title').textContent =
      new Intl.DateTimeFormat(lang, { dateStyle: 'full' }).format(new Date(y, m - 1, dd));
    const time = new Intl.DateTimeFormat(lang, { timeStyle: 'short' });
    const items = events.map((e) => {
      const button = el('button', { type: 'button', class: 'cal-day-event' },
        e.allDay ? t('allDay') : time.format(new Date(e.start)), ' ', el('strong', {}, e.title));
      button.addEventListener('click', () => open(ns, e.id, opener, e.extendedProps.seriesId));
      return el('li', {}, button);
    });
    document.getElementById('cal-panel-body').replaceChildren(el('ul', { class: 'cal-plain cal-day-list' }, ...items));
    if (!d.open) d.showModal();
    d.onclose = () => { if (opener && opener.isConnected) opener.focus(); };
  }

  function init() {
    const d = dialog();
    d.querySelector('.cal-close').addEventListener('click', () => d.close());
    // A click on the backdrop (outside the dialog's box) closes it too.
    d.addEventListener('click', (ev) => { if (ev.target === d) d.close(); });
  }

  C.panel = { init, open, openDay };
})();
