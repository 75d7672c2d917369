// Starts the page: settings, language, filters, then FullCalendar with the API as its event
// source. body[data-loading] says whether a fetch is under way and body[data-lists] whether the
// filter lists are filled (tests and embedders wait on them);
// the performance mark "cal:first-render" is when the first view's events are on screen.
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
    const base = { id: String(e.id), title: e.title, backgroundColor: color, borderColor: color, textColor: '#ffffff' };
    if (e.all_day) {
      const [y, m, d] = e.end_date.slice(0, 10).split('-').map(Number);
      const after = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
      return Object.assign(base, { allDay: true, start: e.start_date.slice(0, 10), end: after });
    }
    const utc = (s) => s.replace(' ', 'T') + 'Z';
    return Object.assign(base, { start: utc(e.utc_start_date), end: utc(e.utc_end_date) });
  }

  function status(text) { document.getElementById('cal-status').textContent = text; }

  // Events are keyboard targets: Tab reaches each, Enter or Space opens the panel.
  function makeFocusable(info, open) {
    const a = info.el;
    a.setAttribute('tabindex', '0');
    a.setAttribute('role', 'button');
    a.setAttribute('aria-label', `${t('openEvent')} ${info.event.title}`);
    a.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); open(info.event.id, a); }
    });
  }

  async function start() {
    const config = await C.config.load();
    C.i18n.use(C.i18n.pick(config.lang));
    const langSelect = document.getElementById('cal-lang');
    langSelect.value = C.i18n.lang();
    C.panel.init();
    const lists = C.filters.load(config.ns, config.filters);

    const phone = window.matchMedia('(max-width: 640px)').matches;
    const open = (id, el) => C.panel.open(config.ns, id, el);
    let fetched = false;
    let fetches = 0;
    const calendar = new FullCalendar.Calendar(document.getElementById('calendar'), {
      initialView: phone ? config.phoneView : config.defaultView,
      initialDate: config.date || undefined,
      firstDay: Number(config.firstDay) || 0,
      locale: C.i18n.lang(),
      timeZone: 'local',
      headerToolbar: phone
        ? { left: 'prev,next', center: 'title', right: 'today' }
        : { left: 'prev,next today', center: 'title', right: C.config.views.join(',') },
      footerToolbar: phone ? { center: C.config.views.join(',') } : false,
      dayMaxEvents: true,
      height: 'auto',
      nowIndicator: true,
      events(info, ok, fail) {
        C.api.events(config.ns, info.start, info.end, C.filters.current())
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
      eventClick(info) { info.jsEvent.preventDefault(); open(info.event.id, info.el); },
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
    calendar.render();
    C.calendar = calendar;
    await lists;
    document.body.dataset.lists = 'ready';
  }

  document.addEventListener('DOMContentLoaded', () => {
    start().catch((err) => { status(t('failed')); throw err; });
  });
})();
