// Starts the page: settings, language, filters, then FullCalendar with the API as its event
// source. body[data-loading] says whether a fetch is under way and body[data-lists] whether the
// filter lists are filled (tests and embedders wait on them); the performance mark
// "cal:first-render" is when the first view's events are on screen (measure.mjs reads it).
(function () {
  'use strict';
  const C = window.CalWeb;
  const t = (k) => C.i18n.t(k);

  // The API record → a FullCalendar event. Timed events are placed by their UTC instants (the
  // grid shows the viewer's time); all-day ones by their dates, whose end FullCalendar wants
  // exclusive (the day after end_date).
  function toCalendarEvent(e, config) {
    const slug = (e.categories || []).map((c) => c.slug).find((s) => config.categoryColors[s]);
    const color = slug ? config.categoryColors[slug] : config.defaultColor;
    const base = { id: String(e.id), title: e.title, backgroundColor: color, borderColor: color, textColor: '#ffffff',
      extendedProps: { seriesId: e.series_id || null } };
    if (e.all_day) {
      const [y, m, d] = e.end_date.slice(0, 10).split('-').map(Number);
      const after = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
      return Object.assign(base, { allDay: true, start: e.start_date.slice(0, 10), end: after });
    }
    const utc = (s) => s.replace(' ', 'T') + 'Z';
    return Object.assign(base, { start: utc(e.utc_start_date), end: utc(e.utc_end_date) });
  }

  // The 6 weeks FullCalendar's month grid shows for `date` (its fixedWeekCount default): from
  // the week start on or before the 1st, in the viewer's zone.
  function monthGrid(date, firstDay) {
    const [y, m] = (date || '').split('-').map(Number);
    const now = new Date();
    const first = y ? new Date(y, m - 1, 1) : new Date(now.getFullYear(), now.getMonth(), 1);
    const start = new Date(first.getFullYear(), first.getMonth(), 1 - ((first.getDay() - firstDay + 7) % 7));
    return { start, end: new Date(start.getFullYear(), start.getMonth(), start.getDate() + 42) };
  }

  function status(text) { document.getElementById('cal-status').textContent = text; }

  // Events are keyboard targets: Tab reaches each, Enter or Space opens the panel.
  function makeFocusable(info, open) {
    const a = info.el;
    a.setAttribute('tabindex', '0');
    a.setAttribute('role', 'button');
    a.setAttribute('aria-label', `${t('openEvent')} ${info.event.title}`);
    a.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); open(info.event, a); }
    });
  }

  async function start() {
    const config = await C.config.load();
    C.i18n.use(C.i18n.pick(config.lang));
    const langSelect = document.getElementById('cal-lang');
    langSelect.value = C.i18n.lang();
    C.panel.init();
    C.filters.init(config.filters);

    const phone = window.matchMedia('(max-width: 640px)').matches;
    const open = (event, el) => C.panel.open(config.ns, event.id, el, event.extendedProps.seriesId);
    // The first month's events are requested now, while FullCalendar's script still sets up and
    // draws the empty grid, instead of when it asks for them (docs/web-calendar.md: first render).
    const initialView = phone ? config.phoneView : config.defaultView;
    const firstDay = Number(config.firstDay) || 0;
    let early = null;
    if (initialView === 'dayGridMonth') {
      const range = monthGrid(config.date, firstDay);
      early = { range, events: C.api.events(config.ns, range.start, range.end, C.filters.current()) };
      early.events.catch(() => {});   // a failure is reported when FullCalendar asks
    }
    // (Kept apart: FullCalendar already asks for events in its constructor, which uses `early`.)
    const issued = early ? early.events.issued : null;
    let fetched = false;
    let fetches = 0;
    const calendar = new FullCalendar.Calendar(document.getElementById('calendar'), {
      initialView,
      initialDate: config.date || undefined,
      firstDay,
      locale: C.i18n.lang(),
      timeZone: 'local',
      headerToolbar: phone
        ? { left: 'prev,next', center: 'title', right: 'today' }
        : { left: 'prev,next today', center: 'title', right: C.config.views.join(',') },
      footerToolbar: phone ? { center: C.config.views.join(',') } : false,
      // The month grid keeps its proportions and shows "+N more" where a day overflows: with 500
      // events a month, a grid growing to fit them all is 3 screens tall and 3 times as slow.
      // On a phone the page grows with its content instead (no scroller inside the page's own).
      dayMaxEvents: true,
      height: phone ? 'auto' : undefined,
      nowIndicator: true,
      events(info, ok, fail) {
        const same = early && early.range.start.getTime() === info.start.getTime() &&
          early.range.end.getTime() === info.end.getTime();
        const request = same ? early.events : C.api.events(config.ns, info.start, info.end, C.filters.current());
        early = null;
        request
          .then((list) => { fetched = true; status(''); ok(list.map((e) => toCalendarEvent(e, config))); })
          .catch((err) => { status(t('failed')); fail(err); });
      },
      loading(busy) {
        if (busy) { document.body.dataset.loading = 'true'; status(t('loading')); return; }
        // After the paint of the fetched events, not at the end of the fetch.
        requestAnimationFrame(() => requestAnimationFrame(() => {
          document.body.dataset.fetches = String(++fetches);
          document.body.dataset.loading = 'false';
        }));
      },
      eventsSet() {
        if (!fetched || performance.getEntriesByName('cal:first-render').length) return;
        requestAnimationFrame(() => performance.mark('cal:first-render'));
      },
      eventClick(info) { info.jsEvent.preventDefault(); open(info.event, info.el); },
      eventDidMount(info) { makeFocusable(info, open); },
      datesSet() { sync(); },
    });

    function sync() {
      C.filters.sync(config.ns, { lang: C.i18n.lang(), view: calendar.view.type, date: isoDay(calendar.getDate()) });
    }
    function isoDay(d) {
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    }

    C.filters.onChange(() => { sync(); calendar.refetchEvents(); });
    langSelect.addEventListener('change', () => {
      C.i18n.use(langSelect.value);
      calendar.setOption('locale', langSelect.value);
      sync();
    });
    // FullCalendar's first render keeps the main thread busy for a while: the follow-up pages
    // of the early request go out before it, not after.
    // (And one turn of the event loop after that, in which Chromium actually sends them.)
    if (issued) {
      await issued;
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    calendar.render();
    C.calendar = calendar;
    // The filter lists only after the events: they wait for no one, the events for the lists'
    // requests (a browser opens 6 connections to a host).
    await C.filters.load(config.ns);
    document.body.dataset.lists = 'ready';
  }

  document.addEventListener('DOMContentLoaded', () => {
    start().catch((err) => { status(t('failed')); throw err; });
  });
})();
