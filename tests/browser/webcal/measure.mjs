// The first-render time of the month view (docs/web-calendar.md): a measurement, not a test.
// Makes sure MONTH holds at least N published events (adds the missing ones through the API with
// the admin token), then opens the calendar RUNS times, each in a fresh browser context (cold
// cache), and reports the page's performance mark "cal:first-render" (milliseconds from the
// start of navigation until the fetched events are painted), the CPU time the page's main
// thread spent until then (cputime.mjs) and how many events the calendar holds. KIND `series`
// adds the missing ones as occurrences of daily series (20 each) instead of one-off events; give
// such a month of its own (e.g. 2093-03), as its count includes whatever the month holds.
//
//   node measure.mjs PAGE_URL ADMIN_TOKEN [N=500] [MONTH=2092-03] [RUNS=7] [KIND=events|series]
// e.g. after `make start`: node tests/browser/webcal/measure.mjs http://127.0.0.1:8080/calendar/ "$(cat var/admin.token)"
import { launch, settle } from './browser.mjs';
import { mainThreadCpu, traceCategories } from './cputime.mjs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const [pageUrl, token, n = '500', month = '2092-03', runs = '7', kind = 'events'] = process.argv.slice(2);
if (!pageUrl || !token || !['events', 'series'].includes(kind)) {
  console.error('usage: node measure.mjs PAGE_URL ADMIN_TOKEN [N] [MONTH] [RUNS] [events|series]');
  process.exit(2);
}
const ns = new URL('api/cal/events/v1', pageUrl).href;
const auth = { Authorization: `Bearer ${token}` };

// The number of events in MONTH now (X-WP-Total of a one-record page).
async function count() {
  const [y, m] = month.split('-').map(Number);
  const next = new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
  const r = await fetch(`${ns}/events?per_page=1&start_date=${month}-01&end_date=${next}&starts_before=${next}`, { headers: auth });
  return Number(r.headers.get('X-WP-Total'));
}

// Adds events spread over the month's days and hours, a few of them several days long or all
// day, as a busy calendar has, 8 at a time.
async function seed(missing) {
  const days = new Date(Date.UTC(...month.split('-').map(Number), 0)).getUTCDate();
  const jobs = [];
  for (let i = 0; i < missing; i++) {
    const day = 1 + (i * 7) % days;
    const hour = 8 + (i % 12);
    const d = `${month}-${String(day).padStart(2, '0')}`;
    const body = i % 25 === 0
      ? { title: `Festival ${i}`, all_day: true, start_date: d, end_date: d }
      : { title: `Event ${i}`, start_date: `${d} ${hour}:00`, end_date: `${d} ${hour + 1 + (i % 3)}:30` };
    jobs.push(body);
  }
  for (let i = 0; i < jobs.length; i += 8) {
    await Promise.all(jobs.slice(i, i + 8).map(async (body) => {
      const r = await fetch(`${ns}/events`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...body, status: 'publish' }) });
      if (r.status !== 201) throw new Error(`create: HTTP ${r.status} ${await r.text()}`);
    }));
  }
}

// Adds daily series of up to 20 occurrences each, starting on the month's first 12 days at
// varied hours, so that every occurrence falls in the month.
async function seedSeries(missing) {
  for (let i = 0; missing > 0; i++) {
    const count = Math.min(20, missing);
    const d = `${month}-${String(1 + (i * 5) % 12).padStart(2, '0')}`;
    const hour = 8 + (i % 12);
    const body = { title: `Course ${i}`, start_date: `${d} ${hour}:00`, end_date: `${d} ${hour + 1}:30`,
      status: 'publish', recurrence: [`RRULE:FREQ=DAILY;COUNT=${count}`] };
    const r = await fetch(`${ns}/events`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(body) });
    if (r.status !== 201) throw new Error(`create series: HTTP ${r.status} ${await r.text()}`);
    missing -= count;
  }
}

const have = await count();
if (have < Number(n)) await (kind === 'series' ? seedSeries : seed)(Number(n) - have);
const total = await count();

// One cold load (a fresh browser context): the mark's time, and with `traced` the main thread's
// CPU time instead (tracing slows the page, so the wall times come from untraced loads).
async function load(browser, traced) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const trace = join(tmpdir(), `cal-measure-${process.pid}.json`);
  if (traced) await page.tracing.start({ path: trace, categories: traceCategories });
  await page.goto(`${pageUrl}?lang=en&view=dayGridMonth&date=${month}-01`);
  await settle(page);
  await page.waitForFunction(() => performance.getEntriesByName('cal:first-render').length > 0, { polling: 100 });
  const mark = await page.evaluate(() => performance.getEntriesByName('cal:first-render')[0].startTime);
  shown = await page.evaluate(() => window.CalWeb.calendar.getEvents().length);
  if (traced) await page.tracing.stop();
  await context.close();
  return traced ? mainThreadCpu(trace) : mark;
}

let shown = 0;   // the events the calendar holds after a load
const times = [];
const cpu = [];
const browser = await launch();
try {
  for (let i = 0; i < Number(runs); i++) times.push(await load(browser, false));
  for (let i = 0; i < Number(runs); i++) cpu.push(await load(browser, true));
} finally {
  await browser.close();
}
times.sort((a, b) => a - b);
cpu.sort((a, b) => a - b);
const fmt = (x) => `${Math.round(x)} ms`;
const median = (xs) => fmt(xs[Math.floor(xs.length / 2)]);
console.log(`month ${month}: ${total} events in the month, ${shown} in the calendar's grid range`);
console.log(`first render (navigation start to events painted), ${times.length} cold loads: ` +
  `median ${median(times)}, min ${fmt(times[0])}, max ${fmt(times[times.length - 1])}`);
console.log(`the page's main thread's CPU time until then (traced loads): median ${median(cpu)}, min ${fmt(cpu[0])}, max ${fmt(cpu[cpu.length - 1])}`);
// The machine's load: on a shared machine the wall times above include waiting for a core.
console.log(`load average: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
