// How a series recurs, in words, for the event panel: the series' `recurrence` lines in normal
// form (docs/recurring-events.md) become "Every Tuesday until June 29, 2027" in en, de, fr or es.
// Pure (no DOM, no requests), so node tests it (tests/browser/webcal/recurrence_test.mjs). A rule
// it cannot say exactly gets the generic "Repeats": a vague text is better than a wrong one.
(function (root) {
  'use strict';
  const dayCodes = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

  // Each language's words and sentence shapes. `days` are the weekdays Monday first; `daysPlural`
  // where "every Tuesday" wants the plural (tous les mardis, todos los sábados); `ordinals` index
  // 1–5, then `last` (-1) and `secondLast` (-2): no language here names -3 and beyond briefly.
  const words = {
    en: {
      days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
      ordinals: ['', 'first', 'second', 'third', 'fourth', 'fifth'], last: 'last', secondLast: 'second to last',
      daily: (n) => (n === 1 ? 'Daily' : `Every ${n} days`),
      workdays: 'Every weekday',
      weekly: (n, days) => (n === 1 ? `Every ${days}` : `Every ${n} weeks on ${days}`),
      monthly: (n) => (n === 1 ? 'Monthly' : `Every ${n} months`),
      yearly: (n) => (n === 1 ? 'Every year' : `Every ${n} years`),
      onDays: (list, count) => (count === 1 ? `on day ${list}` : `on days ${list}`),
      onLastDay: 'on the last day',
      onNth: (ord, day) => `on the ${ord} ${day}`,
      onNthWorkday: (ord) => `on the ${ord} weekday`,
      onDate: (date) => `on ${date}`,
      onNthOf: (ord, day, month) => `on the ${ord} ${day} of ${month}`,
      times: (n) => (n === 1 ? 'once' : `${n} times`),
      until: (date) => `until ${date}`,
      more: (n) => (n === 1 ? 'and 1 more date' : `and ${n} more dates`),
      except: (n) => (n === 1 ? 'except 1 date' : `except ${n} dates`),
      generic: 'Repeats',
      moved: (when) => `Moved from ${when}`,
      changed: 'Changed for this date only',
    },
    de: {
      days: ['Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag', 'Sonntag'],
      ordinals: ['', 'ersten', 'zweiten', 'dritten', 'vierten', 'fünften'], last: 'letzten', secondLast: 'vorletzten',
      daily: (n) => (n === 1 ? 'Täglich' : `Alle ${n} Tage`),
      workdays: 'Montags bis freitags',
      weekly: (n, days) => (n === 1 ? `Jeden ${days}` : `Alle ${n} Wochen am ${days}`),
      monthly: (n) => (n === 1 ? 'Monatlich' : `Alle ${n} Monate`),
      yearly: (n) => (n === 1 ? 'Jährlich' : `Alle ${n} Jahre`),
      onDays: (list) => `am ${list}`,
      dayNumber: (d) => `${d}.`,
      onLastDay: 'am letzten Tag',
      onNth: (ord, day) => `am ${ord} ${day}`,
      onNthWorkday: (ord) => `am ${ord} Werktag (Montag bis Freitag)`,
      onDate: (date) => `am ${date}`,
      onNthOf: (ord, day, month) => `am ${ord} ${day} im ${month}`,
      times: (n) => (n === 1 ? 'einmal' : `${n} Mal`),
      until: (date) => `bis ${date}`,
      more: (n) => (n === 1 ? 'und 1 weiterer Termin' : `und ${n} weitere Termine`),
      except: (n) => (n === 1 ? 'außer an 1 Termin' : `außer an ${n} Terminen`),
      generic: 'Wiederholt sich',
      moved: (when) => `Verlegt, ursprünglich ${when}`,
      changed: 'Nur für diesen Termin geändert',
    },
    fr: {
      days: ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'],
      daysPlural: ['lundis', 'mardis', 'mercredis', 'jeudis', 'vendredis', 'samedis', 'dimanches'],
      ordinals: ['', 'premier', 'deuxième', 'troisième', 'quatrième', 'cinquième'], last: 'dernier',
      secondLast: 'avant-dernier',
      daily: (n) => (n === 1 ? 'Tous les jours' : `Tous les ${n} jours`),
      workdays: 'Du lundi au vendredi',
      weekly: (n, days, plural) => (n === 1 ? `Tous les ${plural}` : `Toutes les ${n} semaines le ${days}`),
      monthly: (n) => (n === 1 ? 'Tous les mois' : `Tous les ${n} mois`),
      yearly: (n) => (n === 1 ? 'Tous les ans' : `Tous les ${n} ans`),
      onDays: (list, count) => (count === 1 ? `le ${list}` : `les ${list}`),
      dayNumber: (d) => (d === 1 ? '1er' : String(d)),
      onLastDay: 'le dernier jour',
      onNth: (ord, day) => `le ${ord} ${day}`,
      onNthWorkday: (ord) => `le ${ord} jour de semaine`,
      onDate: (date) => `le ${date}`,
      onNthOf: (ord, day, month) => `le ${ord} ${day} ${/^[aeiou]/.test(month) ? "d'" : 'de '}${month}`,
      times: (n) => (n === 1 ? 'une fois' : `${n} fois`),
      until: (date) => `jusqu'au ${date}`,
      more: (n) => (n === 1 ? 'et 1 autre date' : `et ${n} autres dates`),
      except: (n) => (n === 1 ? 'sauf 1 date' : `sauf ${n} dates`),
      generic: 'Se répète',
      moved: (when) => `Déplacé, initialement ${when}`,
      changed: 'Modifié pour cette date seulement',
    },
    es: {
      days: ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'],
      daysPlural: ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábados', 'domingos'],
      ordinals: ['', 'primer', 'segundo', 'tercer', 'cuarto', 'quinto'], last: 'último', secondLast: 'penúltimo',
      daily: (n) => (n === 1 ? 'Todos los días' : `Cada ${n} días`),
      workdays: 'De lunes a viernes',
      weekly: (n, days, plural) => (n === 1 ? `Todos los ${plural}` : `Cada ${n} semanas los ${plural}`),
      monthly: (n) => (n === 1 ? 'Cada mes' : `Cada ${n} meses`),
      yearly: (n) => (n === 1 ? 'Cada año' : `Cada ${n} años`),
      onDays: (list, count) => (count === 1 ? `el día ${list}` : `los días ${list}`),
      onLastDay: 'el último día',
      onNth: (ord, day) => `el ${ord} ${day}`,
      onNthWorkday: (ord) => `el ${ord} día laborable (de lunes a viernes)`,
      onDate: (date) => `el ${date}`,
      onNthOf: (ord, day, month) => `el ${ord} ${day} de ${month}`,
      times: (n) => (n === 1 ? 'una vez' : `${n} veces`),
      until: (date) => `hasta el ${date}`,
      more: (n) => (n === 1 ? 'y 1 fecha más' : `y ${n} fechas más`),
      except: (n) => (n === 1 ? 'excepto 1 fecha' : `excepto ${n} fechas`),
      generic: 'Se repite',
      moved: (when) => `Cambiado de fecha, originalmente ${when}`,
      changed: 'Modificado solo para esta fecha',
    },
  };

  function list(lang, items) {
    if (items.length === 1) return items[0];
    if (typeof Intl.ListFormat === 'function') return new Intl.ListFormat(lang, { type: 'conjunction' }).format(items);
    return items.join(', ');
  }

  // The RRULE line's parts as {FREQ: 'WEEKLY', BYDAY: ['TU'], ...}, or null without one.
  function ruleParts(lines) {
    const rule = lines.find((l) => /^RRULE:/i.test(l));
    if (!rule) return null;
    const parts = {};
    for (const p of rule.slice(6).split(';')) {
      const [k, v = ''] = p.split('=');
      parts[k.toUpperCase()] = v.toUpperCase();
    }
    return parts;
  }

  // The number of RDATE or EXDATE values among the lines (several per line possible).
  function dateCount(lines, name) {
    return lines.filter((l) => l.toUpperCase().startsWith(name))
      .reduce((n, l) => n + l.slice(l.indexOf(':') + 1).split(',').filter(Boolean).length, 0);
  }

  // "2027-03-02 19:00:00" → {y, m, d, weekday (0 = Monday)} of that wall clock.
  function wallDate(s) {
    const [y, m, d] = s.slice(0, 10).split('-').map(Number);
    return { y, m, d, weekday: (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7 };
  }

  const monthName = (lang, m) => new Intl.DateTimeFormat(lang, { month: 'long', timeZone: 'UTC' })
    .format(new Date(Date.UTC(2000, m - 1, 1)));
  const monthDay = (lang, m, d) => new Intl.DateTimeFormat(lang, { month: 'long', day: 'numeric', timeZone: 'UTC' })
    .format(new Date(Date.UTC(2000, m - 1, d)));

  // An ordinal of BYDAY or BYSETPOS in words, or null for one the languages here do not name.
  function ordinal(w, n) {
    if (n >= 1 && n <= 5) return w.ordinals[n];
    return n === -1 ? w.last : n === -2 ? w.secondLast : null;
  }

  // BYDAY's entries as [{n, day}] (n 0 without an ordinal), or null when one is malformed.
  function byDay(value) {
    const out = [];
    for (const item of value.split(',')) {
      const m = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(item);
      if (!m) return null;
      out.push({ n: m[1] ? Number(m[1]) : 0, day: dayCodes.indexOf(m[2]) });
    }
    return out;
  }

  const isWorkdays = (days) => days.length === 5 && days.every((d, i) => !d.n && d.day === i);
  const numbers = (value) => (value ? value.split(',').map(Number) : []);

  // The sentence of the rule's period and days ("Every 2 weeks on Monday and Wednesday"), or null
  // when a part or combination is one this module does not describe.
  function period(lang, w, p, first) {
    const known = ['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'BYDAY', 'BYMONTHDAY', 'BYMONTH', 'BYSETPOS', 'WKST'];
    if (Object.keys(p).some((k) => !known.includes(k))) return null;
    const n = p.INTERVAL ? Number(p.INTERVAL) : 1;
    if (!(n >= 1)) return null;
    const days = p.BYDAY ? byDay(p.BYDAY) : null;
    if (p.BYDAY && !days) return null;
    const dayNames = (ds) => list(lang, ds.map((d) => w.days[d.day]));
    const pluralNames = (ds) => list(lang, ds.map((d) => (w.daysPlural || w.days)[d.day]));
    const weekly = (ds, interval) => (interval === 1 && isWorkdays(ds) ? w.workdays
      : w.weekly(interval, dayNames(ds), pluralNames(ds)));
    const dayNumbers = (ds) => list(lang, ds.map((d) => (w.dayNumber ? w.dayNumber(d) : String(d))));

    switch (p.FREQ) {
      case 'DAILY':
        if (p.BYMONTH || p.BYMONTHDAY || p.BYSETPOS) return null;
        if (!days) return w.daily(n);
        return n === 1 && days.every((d) => !d.n) ? weekly(days, 1) : null;
      case 'WEEKLY':
        if (p.BYMONTH || p.BYMONTHDAY || p.BYSETPOS || (days && days.some((d) => d.n))) return null;
        return weekly(days || [{ n: 0, day: first.weekday }], n);
      case 'MONTHLY': {
        if (p.BYMONTH) return null;
        let on;
        if (p.BYSETPOS) {
          const pos = numbers(p.BYSETPOS);
          const ord = pos.length === 1 ? ordinal(w, pos[0]) : null;
          if (!ord || !days || p.BYMONTHDAY || days.some((d) => d.n)) return null;
          if (days.length === 1) on = w.onNth(ord, w.days[days[0].day]);
          else if (isWorkdays(days)) on = w.onNthWorkday(ord);
          else return null;
        } else if (days) {
          const ord = days.length === 1 ? ordinal(w, days[0].n) : null;
          if (!ord || p.BYMONTHDAY) return null;
          on = w.onNth(ord, w.days[days[0].day]);
        } else {
          const ds = p.BYMONTHDAY ? numbers(p.BYMONTHDAY) : [first.d];
          if (ds.length === 1 && ds[0] === -1) on = w.onLastDay;
          else if (ds.every((d) => d >= 1 && d <= 31)) on = w.onDays(dayNumbers(ds), ds.length);
          else return null;
        }
        return `${w.monthly(n)} ${on}`;
      }
      case 'YEARLY': {
        const months = p.BYMONTH ? numbers(p.BYMONTH) : [first.m];
        if (months.length !== 1 || !(months[0] >= 1 && months[0] <= 12) || p.BYSETPOS) return null;
        let on;
        if (days) {
          const ord = days.length === 1 ? ordinal(w, days[0].n) : null;
          if (!p.BYMONTH || !ord || p.BYMONTHDAY) return null;
          on = w.onNthOf(ord, w.days[days[0].day], monthName(lang, months[0]));
        } else {
          const ds = p.BYMONTHDAY ? numbers(p.BYMONTHDAY) : [first.d];
          if (ds.length !== 1 || !(ds[0] >= 1 && ds[0] <= 31)) return null;
          on = w.onDate(monthDay(lang, months[0], ds[0]));
        }
        return `${w.yearly(n)} ${on}`;
      }
      default:
        return null;
    }
  }

  // UNTIL's last day in words, in the series' zone: a UTC DATE-TIME (a timed series) is shown as
  // the day it falls on there, a DATE (an all-day series) as it is.
  function untilDate(lang, value, zone) {
    const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z)?$/.exec(value);
    if (!m) return null;
    const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1).map((x) => Number(x || 0));
    const at = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
    try {
      return new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: m[4] ? zone || 'UTC' : 'UTC' }).format(at);
    } catch (err) {
      // A zone Intl does not know (the service's own fixed-offset names): the UTC day.
      return new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(at);
    }
  }

  // describe(series, lang): how `series` ({recurrence, start_date, timezone}, as
  // GET /events/{series id} gives it) recurs, in `lang` (en, de, fr, es; others: English).
  function describe(series, lang) {
    const w = words[lang] || words.en;
    const raw = series.recurrence || [];
    const lines = (Array.isArray(raw) ? raw : String(raw).split(/\r?\n/)).map((l) => l.trim()).filter(Boolean);
    const p = ruleParts(lines);
    if (!p || !series.start_date) return w.generic;
    let text = period(lang, w, p, wallDate(series.start_date));
    if (!text) return w.generic;
    if (p.COUNT) {
      const n = Number(p.COUNT);
      if (!(n >= 1)) return w.generic;
      text += `, ${w.times(n)}`;
    } else if (p.UNTIL) {
      const date = untilDate(lang, p.UNTIL, series.timezone);
      if (!date) return w.generic;
      text += ` ${w.until(date)}`;
    }
    const more = dateCount(lines, 'RDATE');
    const except = dateCount(lines, 'EXDATE');
    if (more) text += ` ${w.more(more)}`;
    if (except) text += `, ${w.except(except)}`;
    return text;
  }

  // exception(occurrence, lang): for an occurrence edited alone, where the rule had put it
  // ("Moved from Tuesday, April 13, 2027 at 7:00 PM") or that it differs from its series;
  // '' for any other event.
  function exception(e, lang) {
    if (!e.is_exception) return '';
    const w = words[lang] || words.en;
    const original = e.original_start_date;
    if (!original || original === e.start_date) return w.changed;
    const wall = new Date(original.replace(' ', 'T') + 'Z');
    const style = e.all_day ? { dateStyle: 'full', timeZone: 'UTC' } : { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' };
    return w.moved(new Intl.DateTimeFormat(lang, style).format(wall));
  }

  root.CalWeb = root.CalWeb || {};
  root.CalWeb.recurrence = { describe, exception, languages: Object.keys(words) };
})(typeof window !== 'undefined' ? window : globalThis);
