// The month grid's cap on events per day: FullCalendar draws (and measures) every event it is
// given, even those its own "+N more" hides, so a month of 500 events cost more than half a second
// of layout. The grid gets at most `max` events a day (app.js: the rows its cells hold, less one)
// and, for each day with more, one "+N more" item whose list holds all that day's events
// (panel.js shows it). Pure: node tests it
// (tests/browser/webcal/daycap_test.mjs).
(function (root) {
  'use strict';

  const pad = (n) => String(n).padStart(2, '0');
  const dayKey = (d) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const localDay = (s) => { const [y, m, d] = s.slice(0, 10).split('-').map(Number); return new Date(y, m - 1, d); };

  // The viewer-local days a FullCalendar event input covers, as YYYY-MM-DD: an all-day one from
  // its start date to the day before its (exclusive) end; a timed one from the day of its start
  // to that of the instant before its end (ending at midnight does not cover the next day).
  function days(e) {
    let first;
    let last;
    if (e.allDay) {
      first = localDay(e.start);
      last = e.end ? localDay(e.end) : new Date(first.getTime());
      if (e.end) last.setDate(last.getDate() - 1);
    } else {
      const start = new Date(e.start);
      const end = e.end ? new Date(new Date(e.end).getTime() - 1) : start;
      first = new Date(start.getFullYear(), start.getMonth(), start.getDate());
      last = end < start ? first : new Date(end.getFullYear(), end.getMonth(), end.getDate());
    }
    const out = [];
    for (const d = first; d <= last && out.length < 366; d.setDate(d.getDate() + 1)) out.push(dayKey(d));
    return out;
  }

  const span = (e) => (e.end ? new Date(e.end) - new Date(e.start) : 0);
  const startOf = (e) => (e.allDay ? localDay(e.start).getTime() : new Date(e.start).getTime());

  // The order the grid stacks a day's events in (FullCalendar's: earlier start, then longer,
  // then title), all-day and multi-day events first since they start at or before the day.
  function stackOrder(a, b) {
    return startOf(a) - startOf(b) || span(b) - span(a) || String(a.title).localeCompare(String(b.title));
  }

  // cap(events, max, more): {events, more}: the events to draw (a day keeps all when it has at
  // most max + 1, since "+1 more" takes the row the event would) and the "+N more" items, made
  // by more(day, hiddenCount, dayEvents) with dayEvents every event of that day in stack order.
  function cap(events, max, more) {
    const covered = events.map((e) => ({ e, days: days(e) }));
    const total = new Map();
    for (const c of covered) for (const d of c.days) total.set(d, (total.get(d) || 0) + 1);
    const limit = (d) => (total.get(d) <= max + 1 ? Infinity : max);
    covered.sort((a, b) => stackOrder(a.e, b.e));
    const used = new Map();
    const hidden = new Map();
    const all = new Map();
    const kept = [];
    for (const c of covered) {
      for (const d of c.days) (all.get(d) || all.set(d, []).get(d)).push(c.e);
      if (c.days.every((d) => (used.get(d) || 0) < limit(d))) {
        kept.push(c.e);
        for (const d of c.days) used.set(d, (used.get(d) || 0) + 1);
      } else {
        for (const d of c.days) hidden.set(d, (hidden.get(d) || 0) + 1);
      }
    }
    const items = [...hidden.keys()].sort().map((d) => more(d, hidden.get(d), all.get(d)));
    return { events: kept, more: items };
  }

  root.CalWeb = root.CalWeb || {};
  root.CalWeb.dayCap = { cap, days };
})(typeof window !== 'undefined' ? window : globalThis);
