// Parses an iCalendar text (a file named on the command line, or stdin) with ical.js, an
// independent parser, and prints what the integration tests compare (tests/integration/
// ical/feed_test.cpp) as one JSON object: the calendar's properties, its VTIMEZONE ids and its
// events, every DATE-TIME converted to UTC with the VTIMEZONEs of the feed itself (none other is
// registered), DATE values as YYYY-MM-DD. A parse error prints {"error": "..."} and exits 1.
import { readFileSync } from 'node:fs';
import ICAL from 'ical.js';

const text = readFileSync(process.argv[2] ?? 0, 'utf8');

// TEXT unescaping for properties ical.js does not know (X-ALT-DESC): RFC 5545 §3.3.11.
function unescapeText(s) {
  return s.replace(/\\([\\;,nN])/g, (_, c) => (c === 'n' || c === 'N' ? '\n' : c));
}

function instant(time, zones) {
  if (!time) return null;
  if (time.isDate) return time.toString();
  let t = time;
  const tzid = t.timezone;
  if (tzid && t.zone?.tzid !== tzid) {
    const zone = zones.get(tzid);
    if (!zone) throw new Error(`TZID ${tzid} has no VTIMEZONE in the feed`);
    t = t.clone();
    t.zone = zone;
  }
  return new Date(t.toUnixTime() * 1000).toISOString().replace('.000Z', 'Z');
}

function timeOf(comp, name, zones) {
  const prop = comp.getFirstProperty(name);
  if (!prop) return null;
  const value = prop.getFirstValue();
  return {
    utc: instant(value, zones),
    date: value.isDate,
    tzid: prop.getParameter('tzid') ?? null,
    utc_form: !value.isDate && value.zone === ICAL.Timezone.utcTimezone,
  };
}

function textOf(comp, name) {
  const prop = comp.getFirstProperty(name);
  if (!prop) return null;
  const v = prop.getFirstValue();
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string') return v.toString();
  return prop.type === 'unknown' ? unescapeText(v) : v;
}

try {
  const cal = new ICAL.Component(ICAL.parse(text));
  const zones = new Map();
  for (const vtz of cal.getAllSubcomponents('vtimezone')) {
    const tz = new ICAL.Timezone(vtz);
    zones.set(tz.tzid, tz);
  }
  const events = cal.getAllSubcomponents('vevent').map((ev) => {
    const organizer = ev.getFirstProperty('organizer');
    const geo = ev.getFirstPropertyValue('geo');
    return {
      uid: textOf(ev, 'uid'),
      summary: textOf(ev, 'summary'),
      description: textOf(ev, 'description'),
      alt_desc: textOf(ev, 'x-alt-desc'),
      alt_desc_type: ev.getFirstProperty('x-alt-desc')?.getParameter('fmttype') ?? null,
      location: textOf(ev, 'location'),
      geo: geo ? [geo[0], geo[1]] : null,
      organizer: organizer ? { cn: organizer.getParameter('cn') ?? null, address: organizer.getFirstValue() } : null,
      contacts: ev.getAllProperties('contact').map((p) => p.getFirstValue()),
      categories: ev.getAllProperties('categories').flatMap((p) => p.getValues()),
      url: textOf(ev, 'url'),
      status: textOf(ev, 'status'),
      sequence: ev.getFirstPropertyValue('sequence'),
      dtstamp: timeOf(ev, 'dtstamp', zones)?.utc ?? null,
      created: timeOf(ev, 'created', zones)?.utc ?? null,
      last_modified: timeOf(ev, 'last-modified', zones)?.utc ?? null,
      start: timeOf(ev, 'dtstart', zones),
      end: timeOf(ev, 'dtend', zones),
    };
  });
  const out = {
    prodid: textOf(cal, 'prodid'),
    version: textOf(cal, 'version'),
    calscale: textOf(cal, 'calscale'),
    method: textOf(cal, 'method'),
    calname: textOf(cal, 'x-wr-calname'),
    wr_timezone: textOf(cal, 'x-wr-timezone'),
    refresh_interval: textOf(cal, 'refresh-interval'),
    published_ttl: textOf(cal, 'x-published-ttl'),
    timezones: [...zones.keys()],
    events,
  };
  process.stdout.write(JSON.stringify(out) + '\n');
} catch (e) {
  process.stdout.write(JSON.stringify({ error: String(e && e.stack ? e.stack : e) }) + '\n');
  process.exit(1);
}
