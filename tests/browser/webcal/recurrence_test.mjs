// Unit test of web/js/recurrence.js (the event panel's "Every Tuesday until …"), run by node
// without a browser: `node tests/browser/webcal/recurrence_test.mjs` (make test runs it). The
// page's classic script is loaded into a fresh context as the browser would load it. One table
// of cases (the series' normal-form lines, its start, zone, language, the text expected); prints
// every failure with its input and ends with "N passed, N failed".
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const source = fileURLToPath(new URL('../../../web/js/recurrence.js', import.meta.url));
const context = vm.createContext({});
vm.runInContext(readFileSync(source, 'utf8'), context, { filename: source });
const { describe, exception } = context.CalWeb.recurrence;

const berlin = (start, lines) => ({ start_date: start, timezone: 'Europe/Berlin', recurrence: lines });
const tuesday = '2027-03-02 19:00:00';   // a Tuesday
const weeklyUntil = ['RRULE:FREQ=WEEKLY;UNTIL=20270629T170000Z;BYDAY=TU'];

// [series, lang, expected]
const cases = [
  // The rules of the panel, in every language the calendar ships.
  [berlin(tuesday, weeklyUntil), 'en', 'Every Tuesday until June 29, 2027'],
  [berlin(tuesday, weeklyUntil), 'de', 'Jeden Dienstag bis 29. Juni 2027'],
  [berlin(tuesday, weeklyUntil), 'fr', "Tous les mardis jusqu'au 29 juin 2027"],
  [berlin(tuesday, weeklyUntil), 'es', 'Todos los martes hasta el 29 de junio de 2027'],
  [berlin('2027-03-01 10:00:00', ['RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE']), 'en', 'Every 2 weeks on Monday and Wednesday'],
  [berlin('2027-03-01 10:00:00', ['RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE']), 'de', 'Alle 2 Wochen am Montag und Mittwoch'],
  [berlin('2027-03-01 10:00:00', ['RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE']), 'fr', 'Toutes les 2 semaines le lundi et mercredi'],
  [berlin('2027-03-01 10:00:00', ['RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE']), 'es', 'Cada 2 semanas los lunes y miércoles'],
  [berlin('2027-03-05 18:00:00', ['RRULE:FREQ=MONTHLY;BYDAY=1FR']), 'en', 'Monthly on the first Friday'],
  [berlin('2027-03-05 18:00:00', ['RRULE:FREQ=MONTHLY;BYDAY=1FR']), 'de', 'Monatlich am ersten Freitag'],
  [berlin('2027-03-05 18:00:00', ['RRULE:FREQ=MONTHLY;BYDAY=1FR']), 'fr', 'Tous les mois le premier vendredi'],
  [berlin('2027-03-05 18:00:00', ['RRULE:FREQ=MONTHLY;BYDAY=1FR']), 'es', 'Cada mes el primer viernes'],
  [berlin(tuesday, ['RRULE:FREQ=DAILY;COUNT=10']), 'en', 'Daily, 10 times'],
  [berlin(tuesday, ['RRULE:FREQ=DAILY;COUNT=10']), 'de', 'Täglich, 10 Mal'],
  [berlin(tuesday, ['RRULE:FREQ=DAILY;COUNT=10']), 'fr', 'Tous les jours, 10 fois'],
  [berlin(tuesday, ['RRULE:FREQ=DAILY;COUNT=10']), 'es', 'Todos los días, 10 veces'],
  // Periods and days.
  [berlin(tuesday, ['RRULE:FREQ=DAILY;INTERVAL=3']), 'en', 'Every 3 days'],
  [berlin(tuesday, ['RRULE:FREQ=DAILY;COUNT=1']), 'en', 'Daily, once'],
  [berlin(tuesday, ['RRULE:FREQ=WEEKLY']), 'en', 'Every Tuesday'],
  [berlin(tuesday, ['RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR']), 'en', 'Every weekday'],
  [berlin(tuesday, ['RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR']), 'de', 'Montags bis freitags'],
  [berlin(tuesday, ['RRULE:FREQ=DAILY;BYDAY=SA,SU']), 'es', 'Todos los sábados y domingos'],
  [berlin(tuesday, ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR']), 'en', 'Every Monday, Wednesday, and Friday'],
  [berlin(tuesday, ['RRULE:FREQ=MONTHLY']), 'en', 'Monthly on day 2'],
  [berlin(tuesday, ['RRULE:FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1,15']), 'en', 'Every 3 months on days 1 and 15'],
  [berlin(tuesday, ['RRULE:FREQ=MONTHLY;BYMONTHDAY=1']), 'fr', 'Tous les mois le 1er'],
  [berlin(tuesday, ['RRULE:FREQ=MONTHLY;BYMONTHDAY=15']), 'de', 'Monatlich am 15.'],
  [berlin(tuesday, ['RRULE:FREQ=MONTHLY;BYMONTHDAY=-1']), 'es', 'Cada mes el último día'],
  [berlin(tuesday, ['RRULE:FREQ=MONTHLY;BYDAY=-1SU']), 'en', 'Monthly on the last Sunday'],
  [berlin(tuesday, ['RRULE:FREQ=MONTHLY;BYDAY=-2TH']), 'de', 'Monatlich am vorletzten Donnerstag'],
  [berlin(tuesday, ['RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1']), 'en', 'Monthly on the last weekday'],
  [berlin(tuesday, ['RRULE:FREQ=MONTHLY;BYDAY=TH;BYSETPOS=3']), 'fr', 'Tous les mois le troisième jeudi'],
  [berlin(tuesday, ['RRULE:FREQ=YEARLY']), 'en', 'Every year on March 2'],
  [berlin(tuesday, ['RRULE:FREQ=YEARLY;BYMONTH=7;BYMONTHDAY=4']), 'es', 'Cada año el 4 de julio'],
  [berlin(tuesday, ['RRULE:FREQ=YEARLY;INTERVAL=2;BYMONTH=3;BYDAY=-1SU']), 'en', 'Every 2 years on the last Sunday of March'],
  [berlin(tuesday, ['RRULE:FREQ=YEARLY;BYMONTH=4;BYDAY=1MO']), 'fr', "Tous les ans le premier lundi d'avril"],
  [berlin(tuesday, ['RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=1SU']), 'de', 'Jährlich am ersten Sonntag im Oktober'],
  // UNTIL is an instant, shown as its day in the series' zone: 23:30Z on the 28th is the 29th
  // in Berlin; an all-day series' DATE is that day.
  [berlin(tuesday, ['RRULE:FREQ=WEEKLY;UNTIL=20270628T233000Z']), 'en', 'Every Tuesday until June 29, 2027'],
  [{ start_date: '2027-03-02 00:00:00', timezone: 'America/New_York', all_day: true,
    recurrence: ['RRULE:FREQ=WEEKLY;UNTIL=20270629'] }, 'en', 'Every Tuesday until June 29, 2027'],
  [{ start_date: tuesday, timezone: 'UTC+5:30', recurrence: ['RRULE:FREQ=WEEKLY;UNTIL=20270629T170000Z'] }, 'en',
    'Every Tuesday until June 29, 2027'],
  // Added and removed dates.
  [berlin(tuesday, weeklyUntil.concat(['EXDATE;TZID=Europe/Berlin:20270413T190000'])), 'en',
    'Every Tuesday until June 29, 2027, except 1 date'],
  [berlin(tuesday, ['RRULE:FREQ=WEEKLY', 'RDATE;TZID=Europe/Berlin:20270401T190000,20270402T190000',
    'EXDATE;VALUE=DATE:20270413,20270420']), 'de', 'Jeden Dienstag und 2 weitere Termine, außer an 2 Terminen'],
  [berlin(tuesday, 'RRULE:FREQ=DAILY;COUNT=10\nRDATE:20270401T100000Z'), 'fr', 'Tous les jours, 10 fois et 1 autre date'],
  // What it does not describe: the generic text, never a wrong one.
  [berlin(tuesday, []), 'en', 'Repeats'],
  [berlin(tuesday, ['RDATE;TZID=Europe/Berlin:20270401T190000']), 'en', 'Repeats'],
  [berlin(tuesday, ['RRULE:FREQ=HOURLY']), 'de', 'Wiederholt sich'],
  [berlin(tuesday, ['RRULE:FREQ=WEEKLY;BYWEEKNO=3']), 'en', 'Repeats'],
  [berlin(tuesday, ['RRULE:FREQ=WEEKLY;BYMONTH=3']), 'en', 'Repeats'],
  [berlin(tuesday, ['RRULE:FREQ=DAILY;INTERVAL=2;BYDAY=MO']), 'en', 'Repeats'],
  [berlin(tuesday, ['RRULE:FREQ=MONTHLY;BYDAY=1MO,3MO']), 'fr', 'Se répète'],
  [berlin(tuesday, ['RRULE:FREQ=MONTHLY;BYDAY=-3MO']), 'en', 'Repeats'],
  [berlin(tuesday, ['RRULE:FREQ=MONTHLY;BYDAY=TU']), 'en', 'Repeats'],
  [berlin(tuesday, ['RRULE:FREQ=MONTHLY;BYMONTHDAY=-2']), 'es', 'Se repite'],
  [berlin(tuesday, ['RRULE:FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=1']), 'en', 'Repeats'],
  [berlin(tuesday, ['RRULE:FREQ=YEARLY;BYMONTH=3,9']), 'en', 'Repeats'],
  [berlin(tuesday, ['RRULE:FREQ=YEARLY;BYDAY=20MO']), 'en', 'Repeats'],
  [berlin(tuesday, ['RRULE:FREQ=WEEKLY;UNTIL=someday']), 'en', 'Repeats'],
  [berlin(tuesday, ['RRULE:FREQ=WEEKLY;INTERVAL=0']), 'en', 'Repeats'],
  // A language the calendar does not ship: English.
  [berlin(tuesday, ['RRULE:FREQ=WEEKLY']), 'it', 'Every Tuesday'],
];

// [occurrence, lang, expected]: the marker of an occurrence edited alone.
const exceptions = [
  [{ is_exception: true, start_date: '2027-04-14 20:00:00', original_start_date: '2027-04-13 19:00:00' }, 'en',
    'Moved from Tuesday, April 13, 2027 at 7:00 PM'],
  [{ is_exception: true, start_date: '2027-04-14 20:00:00', original_start_date: '2027-04-13 19:00:00' }, 'de',
    'Verlegt, ursprünglich Dienstag, 13. April 2027 um 19:00'],
  [{ is_exception: true, all_day: true, start_date: '2027-04-14 00:00:00', original_start_date: '2027-04-13 00:00:00' },
    'fr', 'Déplacé, initialement mardi 13 avril 2027'],
  [{ is_exception: true, start_date: '2027-04-13 19:00:00', original_start_date: '2027-04-13 19:00:00' }, 'es',
    'Modificado solo para esta fecha'],
  [{ is_exception: false, start_date: '2027-04-13 19:00:00', original_start_date: '2027-04-13 19:00:00' }, 'en', ''],
  [{ title: 'one-off', start_date: '2027-04-13 19:00:00' }, 'en', ''],
];

let passed = 0;
let failed = 0;
function check(got, expected, input) {
  if (got === expected) { passed++; return; }
  failed++;
  console.log(`FAIL ${JSON.stringify(input)}\n  expected: ${JSON.stringify(expected)}\n  got:      ${JSON.stringify(got)}`);
}
for (const [series, lang, expected] of cases) check(describe(series, lang), expected, { series, lang });
for (const [occurrence, lang, expected] of exceptions) check(exception(occurrence, lang), expected, { occurrence, lang });
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
