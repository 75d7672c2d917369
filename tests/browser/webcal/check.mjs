// The web calendar in headless Chromium (run by tests/integration/deploy/webcal_browser_test.cpp, which
// seeds the events first): observes what the page shows and prints one line
// "RESULT {json}" for the C++ test to judge. Nothing here passes or fails by itself.
//
//   node check.mjs PAGE_URL MONTH CATEGORY_SLUG PANEL_TITLE ZONE_TITLE SERIES_TITLE EXCEPTION_TITLE SCREENSHOT_DIR
// PAGE_URL is the calendar (…/calendar/), MONTH YYYY-MM, CATEGORY_SLUG the category to filter by,
// PANEL_TITLE the event whose panel is opened (by keyboard), ZONE_TITLE one in another zone,
// SERIES_TITLE an occurrence of a recurring series and EXCEPTION_TITLE one edited alone.
// The viewer is in Europe/Berlin.
import { launch, settle } from './browser.mjs';
import { lowContrast } from './contrast.mjs';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const [pageUrl, month, categorySlug, panelTitle, zoneTitle, seriesTitle, exceptionTitle, shots] = process.argv.slice(2);
const viewerZone = 'Europe/Berlin';
mkdirSync(shots, { recursive: true });

// In the page: the days each visible event covers in the month grid, found by geometry (an
// event bar lies over the day cells it spans), as {title: [YYYY-MM-DD, ...]}.
function shownDays() {
  const cells = Array.from(document.querySelectorAll('td.fc-daygrid-day[data-date]'))
    .map((td) => ({ date: td.dataset.date, r: td.getBoundingClientRect() }));
  const shown = {};
  for (const ev of document.querySelectorAll('.fc-daygrid-event-harness .fc-event')) {
    if (getComputedStyle(ev.closest('.fc-daygrid-event-harness')).visibility === 'hidden') continue;
    const title = ev.querySelector('.fc-event-title').textContent;
    const r = ev.getBoundingClientRect();
    const y = (r.top + r.bottom) / 2;
    for (const c of cells) {
      const overlap = Math.min(r.right, c.r.right) - Math.max(r.left, c.r.left);
      if (y >= c.r.top && y <= c.r.bottom && overlap > c.r.width / 2) (shown[title] ||= new Set()).add(c.date);
    }
  }
  return Object.fromEntries(Object.entries(shown).map(([t, s]) => [t, [...s].sort()]).sort());
}

// In the page, independent of the page's own code: the API's events overlapping the visible
// grid (extra query parameters in `filter`) and the viewer-local days each covers, clipped to
// the grid; an event ending exactly at midnight does not cover the next day.
async function apiDays(ns, filter) {
  const cells = Array.from(document.querySelectorAll('td.fc-daygrid-day[data-date]')).map((td) => td.dataset.date);
  const first = cells[0];
  const last = cells[cells.length - 1];
  const local = (s) => { const [y, m, d] = s.split('-').map(Number); return new Date(y, m - 1, d); };
  const after = new Date(local(last).getTime()); after.setDate(after.getDate() + 1);
  const day = (d) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  const events = [];
  for (let page = 1, pages = 1; page <= pages; page++) {
    const q = new URLSearchParams(Object.assign({ starts_before: after.toISOString(),
      ends_after: local(first).toISOString(), strict_dates: 'true', per_page: '50', page: String(page) }, filter));
    const r = await fetch(`${ns}/events?${q}`);
    pages = Number(r.headers.get('X-WP-TotalPages'));
    events.push(...(await r.json()).events);
  }
  const out = {};
  for (const e of events) {
    let a; let b;
    if (e.all_day) { a = local(e.start_date.slice(0, 10)); b = local(e.end_date.slice(0, 10)); } else {
      a = new Date(e.utc_start_date.replace(' ', 'T') + 'Z');
      b = new Date(new Date(e.utc_end_date.replace(' ', 'T') + 'Z').getTime() - 1);
    }
    const days = out[e.title] ||= new Set();
    for (const d = new Date(a.getFullYear(), a.getMonth(), a.getDate()); d <= b; d.setDate(d.getDate() + 1)) {
      if (day(d) >= first && day(d) <= last) days.add(day(d));
    }
  }
  return Object.fromEntries(Object.entries(out).map(([t, s]) => [t, [...s].sort()]).sort());
}

// Closes the panel with Escape and waits for its close event, in which the panel gives the focus
// back to what opened it: on a busy machine that came after the next event was focused, and the
// next Enter opened the previous event's panel again.
async function closePanel(page) {
  await page.evaluate(() => {
    window.__calPanelClosed = false;
    document.querySelector('#cal-panel').addEventListener('close',
      () => setTimeout(() => { window.__calPanelClosed = true; }, 0), { once: true });
  });
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => window.__calPanelClosed === true, { timeout: 30000 });
}

// The month grid's "+N more" items (daycap.js): opens each (a click) and reads the day's list,
// whose events count as shown on that day; the items' own titles leave `shown`. Returns
// {day: the item's text}.
async function moreLists(page, shown) {
  const more = {};
  const days = await page.$$eval('.fc-daygrid-day .cal-more', (els) => els.map((e) => e.closest('td[data-date]').dataset.date));
  for (const day of days) {
    const item = `td[data-date="${day}"] .cal-more`;
    more[day] = await page.$eval(item, (e) => e.querySelector('.fc-event-title').textContent);
    delete shown[more[day]];
    await page.click(item);
    await page.waitForSelector('#cal-panel[open] .cal-day-event', { timeout: 30000 });
    const titles = await page.$$eval('#cal-panel .cal-day-event strong', (els) => els.map((e) => e.textContent));
    await closePanel(page);
    for (const t of titles) shown[t] = [...new Set([...(shown[t] || []), day])].sort();
  }
  return more;
}

const result = { errors: [] };
const browser = await launch();
try {
  const page = await browser.newPage();
  // Every console error, uncaught exception and failed request of the page counts.
  page.on('console', (m) => { if (m.type() === 'error') result.errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => result.errors.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => result.errors.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => { if (r.status() >= 400) result.errors.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.emulateTimezone(viewerZone);
  await page.setViewport({ width: 1100, height: 820 });
  await page.goto(`${pageUrl}?lang=en&view=dayGridMonth&date=${month}-01`);
  let fetches = await settle(page);
  await page.waitForSelector('body[data-lists="ready"]');
  const ns = await page.evaluate(() => new URL('api/cal/events/v1', location.href).href);

  // The month view against the API.
  result.month = { title: await page.$eval('.fc-toolbar-title', (e) => e.textContent),
    shown: await page.evaluate(shownDays), api: await page.evaluate(apiDays, ns, {}) };
  await page.screenshot({ path: join(shots, 'month.png') });
  result.month.drawn = Object.keys(result.month.shown);
  result.month.more = await moreLists(page, result.month.shown);

  // The week of a capped day, then the month again: the week view gets every event (the month's
  // list, not its capped grid), and no "+N more" item.
  await page.evaluate((d) => window.CalWeb.calendar.changeView('timeGridWeek', d), `${month}-09`);
  fetches = await settle(page, fetches);
  result.week = await page.evaluate(() => ({
    titles: Array.from(document.querySelectorAll('.fc-timegrid-event .fc-event-title, .fc-daygrid-event .fc-event-title'))
      .map((e) => e.textContent).sort(),
    more: document.querySelectorAll('.cal-more').length }));
  await page.evaluate((d) => window.CalWeb.calendar.changeView('dayGridMonth', d), `${month}-01`);
  fetches = await settle(page, fetches);
  result.contrast = await page.evaluate(lowContrast);

  // A category filter: the grid, the address bar and the Subscribe link follow it.
  await page.select('#cal-category', categorySlug);
  fetches = await settle(page, fetches);
  result.category = { shown: await page.evaluate(shownDays),
    api: await page.evaluate(apiDays, ns, { categories: categorySlug }),
    subscribe: await page.$eval('#cal-subscribe', (a) => a.href), location: await page.evaluate(() => location.search) };
  await page.select('#cal-category', '');
  fetches = await settle(page, fetches);

  // The language: the page's texts and FullCalendar's month name and buttons.
  await page.select('#cal-lang', 'de');
  result.german = await page.evaluate(() => ({ lang: document.documentElement.lang,
    heading: document.querySelector('h1').textContent, title: document.querySelector('.fc-toolbar-title').textContent,
    today: document.querySelector('.fc-today-button').textContent, all: document.querySelector('#cal-category option').textContent,
    subscribe: document.querySelector('#cal-subscribe').textContent, location: location.search }));
  await page.screenshot({ path: join(shots, 'month-de.png') });
  await page.select('#cal-lang', 'en');

  // The event panel, opened from the keyboard (focus the event, Enter) and closed with Escape.
  async function panel(title) {
    const handle = await page.evaluateHandle((t) => Array.from(document.querySelectorAll('.fc-event'))
      .find((e) => e.querySelector('.fc-event-title')?.textContent === t), title);
    await handle.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction((t) => document.querySelector('#cal-panel[open] h2')?.textContent === t &&
      document.querySelector('#cal-panel-body').children.length > 0, { timeout: 30000 }, title);
    const seen = await page.evaluate(() => {
      const body = document.querySelector('#cal-panel-body');
      return { eventZone: body.querySelector('.cal-when-event')?.textContent || '',
        viewerZone: body.querySelector('.cal-when-viewer')?.textContent || '', text: body.textContent,
        links: Array.from(body.querySelectorAll('a')).map((a) => a.getAttribute('href')),
        strong: Array.from(body.querySelectorAll('.cal-description strong')).map((s) => s.textContent),
        rule: body.querySelector('.cal-rule')?.textContent ?? null,
        exception: body.querySelector('.cal-exception')?.textContent ?? null,
        label: document.activeElement.closest('dialog') ? 'inside' : 'outside' };
    });
    return { seen, handle };
  }
  const p = await panel(panelTitle);
  result.panel = p.seen;
  await page.screenshot({ path: join(shots, 'panel.png') });
  result.panelContrast = await page.evaluate(lowContrast);
  await closePanel(page);
  result.panel.closed = await page.evaluate(() => !document.querySelector('#cal-panel').open);
  result.panel.focusBack = await page.evaluate((t) => document.activeElement.getAttribute('aria-label') || '', panelTitle);
  result.zone = (await panel(zoneTitle)).seen;
  await closePanel(page);
  // A recurring series: an occurrence's panel says how it recurs, in English and in German, and
  // the occurrence edited alone where its rule had put it.
  result.series = (await panel(seriesTitle)).seen;
  await closePanel(page);
  result.exception = (await panel(exceptionTitle)).seen;
  await page.screenshot({ path: join(shots, 'panel-exception.png') });
  result.exceptionContrast = await page.evaluate(lowContrast);
  await closePanel(page);
  await page.select('#cal-lang', 'de');
  result.seriesGerman = (await panel(seriesTitle)).seen;
  await closePanel(page);
  await page.select('#cal-lang', 'en');
  result.xss = await page.evaluate(() => window.__xss === undefined);
  await page.close();

  // No ?lang=: the browser's preferred languages choose (French here, then English).
  const french = await browser.newPage();
  await french.evaluateOnNewDocument(() => {
    Object.defineProperty(navigator, 'languages', { get: () => ['fr-CA', 'fr', 'en'] });
  });
  await french.goto(`${pageUrl}?date=${month}-01&view=dayGridMonth`);
  await settle(french);
  result.browserLanguage = await french.evaluate(() => ({ lang: document.documentElement.lang,
    heading: document.querySelector('h1').textContent, title: document.querySelector('.fc-toolbar-title').textContent }));
  await french.close();

  // A phone: the list view fits the width (no sideways scrolling).
  const phone = await browser.newPage();
  phone.on('console', (m) => { if (m.type() === 'error') result.errors.push(`phone console: ${m.text()}`); });
  phone.on('pageerror', (e) => result.errors.push(`phone pageerror: ${e.message}`));
  await phone.emulateTimezone(viewerZone);
  await phone.setViewport({ width: 375, height: 740, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
  await phone.goto(`${pageUrl}?lang=en&date=${month}-01`);
  await settle(phone);
  result.phone = await phone.evaluate(() => ({ list: !!document.querySelector('.fc-list'),
    width: document.documentElement.scrollWidth,
    // Only titles one can see count: scrolled to, each must be what is at its own centre (a
    // list squeezed into a scroller of no height has them in the DOM, but hidden).
    titles: Array.from(document.querySelectorAll('.fc-list-event-title')).filter((e) => {
      e.scrollIntoView({ block: 'center' });
      const r = e.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return hit !== null && e.contains(hit);
    }).map((e) => e.textContent) }));
  await phone.evaluate(() => window.scrollTo(0, 0));
  await phone.screenshot({ path: join(shots, 'phone.png'), fullPage: true });
  result.phoneContrast = await phone.evaluate(lowContrast);
} catch (e) {
  result.errors.push(`driver: ${e.stack || e}`);
} finally {
  await browser.close();
}
console.log('RESULT ' + JSON.stringify(result));
