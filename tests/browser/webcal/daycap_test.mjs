// Unit test of web/js/daycap.js (the month grid's cap of events per day), run by node without a
// browser in the viewer zone Europe/Berlin: `node tests/browser/webcal/daycap_test.mjs` (make
// test runs it). Table-driven; ends with "N passed, N failed".
process.env.TZ = 'Europe/Berlin';
const { readFileSync } = await import('node:fs');
const { fileURLToPath } = await import('node:url');
const vm = (await import('node:vm')).default;

const source = fileURLToPath(new URL('../../../web/js/daycap.js', import.meta.url));
const context = vm.createContext({});
vm.runInContext(readFileSync(source, 'utf8'), context, { filename: source });
const { cap, days } = context.CalWeb.dayCap;

// A timed event (UTC instants) and an all-day one (exclusive end date), as app.js makes them.
const timed = (id, start, end) => ({ id, title: id, start, end });
const allDay = (id, start, end) => ({ id, title: id, allDay: true, start, end });
const more = (day, hidden, all) => ({ day, hidden, all: all.map((e) => e.id) });
// Plain data out of the other context, for comparison.
const plain = (x) => JSON.parse(JSON.stringify(x));

let passed = 0;
let failed = 0;
function check(name, got, expected) {
  const a = JSON.stringify(plain(got));
  const b = JSON.stringify(expected);
  if (a === b) { passed++; return; }
  failed++;
  console.log(`FAIL ${name}\n  expected: ${b}\n  got:      ${a}`);
}

// days(): the viewer's days an event covers.
const dayCases = [
  ['timed, one day', timed('a', '2093-03-02T09:00:00Z', '2093-03-02T10:00:00Z'), ['2093-03-02']],
  // 23:30Z on the 1st is 00:30 on the 2nd in Berlin.
  ['timed, the viewer\'s day', timed('a', '2093-03-01T23:30:00Z', '2093-03-02T00:30:00Z'), ['2093-03-02']],
  ['timed, ends at midnight', timed('a', '2093-03-02T20:00:00Z', '2093-03-02T23:00:00Z'), ['2093-03-02']],
  ['timed, three days', timed('a', '2093-03-02T09:00:00Z', '2093-03-04T10:00:00Z'), ['2093-03-02', '2093-03-03', '2093-03-04']],
  ['all-day, two days', allDay('a', '2093-03-30', '2093-04-01'), ['2093-03-30', '2093-03-31']],
  ['all-day, no end', allDay('a', '2093-03-30'), ['2093-03-30']],
];
for (const [name, e, expected] of dayCases) check(`days: ${name}`, days(e), expected);

// cap(): what the grid draws, and the "+N more" items.
const at = (id, day, hour) => timed(id, `2093-03-${day}T${String(hour).padStart(2, '0')}:00:00Z`,
  `2093-03-${day}T${String(hour + 1).padStart(2, '0')}:00:00Z`);
const capCases = [
  ['a day at the cap keeps all', [at('a', '02', 9), at('b', '02', 10), at('c', '02', 11)], 3,
    { events: ['a', 'b', 'c'], more: [] }],
  // Four events and a cap of 3: "+1 more" would take the fourth's row, so all four stay.
  ['one over the cap keeps all', [at('a', '02', 9), at('b', '02', 10), at('c', '02', 11), at('d', '02', 12)], 3,
    { events: ['a', 'b', 'c', 'd'], more: [] }],
  ['the earliest stay, in start order', [at('e', '02', 13), at('d', '02', 12), at('c', '02', 11), at('b', '02', 10),
    at('a', '02', 9), at('x', '03', 9)], 3,
  { events: ['a', 'b', 'c', 'x'], more: [more('2093-03-02', 2, [at('a'), at('b'), at('c'), at('d'), at('e')])] }],
  // An all-day event over two days comes first on both; a day with room keeps its events.
  ['all-day first, per day', [at('a', '02', 9), at('b', '02', 10), at('c', '02', 11), at('d', '02', 12),
    at('e', '02', 13), allDay('f', '2093-03-02', '2093-03-04'), at('g', '03', 9)], 3,
  { events: ['f', 'a', 'b', 'g'], more: [more('2093-03-02', 3, [allDay('f'), at('a'), at('b'), at('c'), at('d'), at('e')])] }],
  // A multi-day event that does not fit one of its days is hidden on all of them and listed in
  // each day's "+N more".
  ['a hidden multi-day event, every day', [at('a', '02', 1), at('b', '02', 2), at('c', '02', 3),
    timed('m', '2093-03-02T08:00:00Z', '2093-03-03T09:00:00Z'), at('d', '02', 9), at('g', '03', 12)], 2,
  { events: ['a', 'b', 'g'], more: [more('2093-03-02', 3, [at('a'), at('b'), at('c'), timed('m'), at('d')]),
    more('2093-03-03', 1, [timed('m'), at('g')])] }],
  ['nothing', [], 3, { events: [], more: [] }],
];
for (const [name, events, max, expected] of capCases) {
  const got = cap(events, max, (day, hidden, all) => more(day, hidden, all));
  check(`cap: ${name}`, { events: got.events.map((e) => e.id), more: got.more }, expected);
}

console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
