// Expands an iCalendar text (a file named on the command line) with ical.js, an independent
// implementation of RFC 5545 recurrence, between two UTC instants (argv[3], argv[4], ISO 8601):
// every VEVENT with its RRULE, RDATE and EXDATE, the VEVENTs with a RECURRENCE-ID replacing the
// occurrences they name. Prints one JSON array of {uid, start, summary} (start in UTC) sorted by
// start then summary, for tests/integration/ical/recurring_feed_test.cpp. Errors print
// {"error": "..."} and exit 1.
import { readFileSync } from 'node:fs';
import ICAL from 'ical.js';

try {
  const cal = new ICAL.Component(ICAL.parse(readFileSync(process.argv[2], 'utf8')));
  for (const vtz of cal.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(vtz);
  const from = ICAL.Time.fromJSDate(new Date(process.argv[3]), true);
  const to = ICAL.Time.fromJSDate(new Date(process.argv[4]), true);
  const masters = new Map();
  const overrides = [];
  for (const vevent of cal.getAllSubcomponents('vevent')) {
    const event = new ICAL.Event(vevent);
    if (event.isRecurrenceException()) overrides.push(event);
    else masters.set(event.uid, event);
  }
  for (const o of overrides) {
    const master = masters.get(o.uid);
    if (!master) throw new Error(`RECURRENCE-ID of ${o.uid} without its series`);
    master.relateException(o);
  }
  const utc = (t) => new Date(t.toUnixTime() * 1000).toISOString().replace('.000Z', 'Z');
  const out = [];
  for (const event of masters.values()) {
    if (!event.isRecurring()) {
      if (event.startDate.compare(from) >= 0 && event.startDate.compare(to) < 0)
        out.push({ uid: event.uid, start: utc(event.startDate), summary: event.summary });
      continue;
    }
    const it = event.iterator();
    // Past the window's end by a year: an override may move an occurrence into the window.
    const stop = to.clone();
    stop.year += 1;
    for (let next = it.next(); next && next.compare(stop) < 0; next = it.next()) {
      const details = event.getOccurrenceDetails(next);
      if (details.startDate.compare(from) < 0 || details.startDate.compare(to) >= 0) continue;
      out.push({ uid: event.uid, start: utc(details.startDate), summary: details.item.summary });
    }
  }
  out.sort((a, b) => (a.start === b.start ? a.summary.localeCompare(b.summary) : a.start < b.start ? -1 : 1));
  console.log(JSON.stringify(out));
} catch (e) {
  console.log(JSON.stringify({ error: String(e && e.stack ? e.stack : e) }));
  process.exit(1);
}
