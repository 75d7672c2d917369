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
      extendedProps: { seriesId: e.series_id || null, rank: 0 } };
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

  // Events per day the month grid draws before "+N more" (daycap.js) when its cells cannot be
  // measured.
  const kDayMax = 3;

  // The event rows a day cell of the drawn month grid holds (FullCalendar's cells follow the
  // window's width): the cell less its day number and its bottom margin (1em), over a row of
  // FullCalendar's small text (.85em at line height 1.4, plus padding and margin).
  function rowsThatFit() {
    const frame = document.querySelector('.fc-daygrid-body .fc-daygrid-day-frame');
    const top = frame && frame.querySelector('.fc-daygrid-day-top');
    if (!frame || !top) return kDayMax + 1;
    const em = parseFloat(getComputedStyle(frame).fontSize) || 16;
    return Math.floor((frame.clientHeight - top.offsetHeight - em) / (em * 0.85 * 1.4 + 5));
  }

  // A "+N more" item of the month grid: an all-day item after the day's events (rank 1 in
  // eventOrder) whose click lists every event of the day (panel.js).
  function moreItem(day, hidden, dayEvents) {
    return { id: `more:${day}`, title: t('more').replace('{n}', hidden), start: day, allDay: true,
      classNames: ['cal-more'], backgroundColor: 'transparent', borderColor: 'transparent', textColor: '#0b57d0',
      extendedProps: { rank: 1, day, hidden, dayEvents } };
  }

  // Whether FullCalendar asks for the events of a month grid: its range is 42 days (the
  // fixedWeekCount default), a list month's is the month, a week's 7 days. (The callback is not
  // told the view, and calendar.view may still be the previous one while it runs.)
  function isMonthGrid(info) { return Math.round((info.end - info.start) / 864e5) === 42; }

  // The month grid gets its events capped per day, one row kept for "+N more"; the other views
  // all of them.
  function forView(monthGrid, events) {
    if (!monthGrid) return events;
    const capped = C.dayCap.cap(events, Math.max(1, rowsThatFit() - 1), moreItem);
    return capped.events.concat(capped.more);
  }

  function status(text) { document.getElementById('cal-status').textContent = text; }

  // Events are keyboard targets: Tab reaches each, Enter or Space opens the panel.
  function makeFocusable(info, open) {
    const a = info.el;
    a.setAttribute('tabindex', '0');
    a.setAttribute('role', 'button');
    const day = info.event.extendedProps.day;
    a.setAttribute('aria-label', day ? `${t('dayEvents')} (${info.event.title})` : `${t('openEvent')} ${info.event.title}`);
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
    const open = (event, el) => (event.extendedProps.day
      ? C.panel.openDay(config.ns, event.extendedProps.day, event.extendedProps.dayEvents, el)
      : C.panel.open(config.ns, event.id, el, event.extendedProps.seriesId));
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
    let held = null;   // the last list fetched: {key (the filters), start, end, list (a promise)}
    // Settles once the grid is drawn: the month's cap measures its cells.
    let markRendered;
    const rendered = new Promise((resolve) => { markRendered = resolve; });
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
      eventOrder: 'rank,start,-duration,allDay,title',
      height: phone ? 'auto' : undefined,
      nowIndicator: true,
      // FullCalendar asks on every change of view or dates (lazyFetching off), and a range inside
      // the one last fetched with the same filters is served from that list: the month grid's
      // capped events must not reach the week or day view, which take their events from it.
      lazyFetching: false,
      events(info, ok, fail) {
        const key = JSON.stringify(C.filters.current());
        let request;
        if (held && held.key === key && info.start >= held.start && info.end <= held.end) {
          request = held.list;
        } else {
          const same = early && early.range.start.getTime() === info.start.getTime() &&
            early.range.end.getTime() === info.end.getTime();
          request = same ? early.events : C.api.events(config.ns, info.start, info.end, C.filters.current());
          held = { key, start: info.start, end: info.end, list: request };
          request.catch(() => { if (held && held.list === request) held = null; });
        }
        early = null;
        request
          .then((list) => rendered.then(() => list))
          .then((list) => {
            fetched = true;
            status('');
            ok(forView(isMonthGrid(info), list.map((e) => toCalendarEvent(e, config))));
          })
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
      // FullCalendar's own "+N more" (a window too small for the cap) lists the day as ours does:
      // all the day's events when the day has our item, else those FullCalendar holds. (A
      // function returning neither "popover" nor a view name opens no popover.)
      moreLinkClick(info) {
        const ours = calendar.getEventById(`more:${isoDay(info.date)}`);
        const events = ours ? ours.extendedProps.dayEvents : info.allSegs.map((seg) => seg.event);
        C.panel.openDay(config.ns, isoDay(info.date), events, info.jsEvent.target.closest('a') || info.jsEvent.target);
        return true;
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
      for (const ev of calendar.getEvents()) {
        if (ev.extendedProps.day) ev.setProp('title', t('more').replace('{n}', ev.extendedProps.hidden));
      }
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
    markRendered();
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
