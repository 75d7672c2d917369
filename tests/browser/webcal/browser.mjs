// What check.mjs and measure.mjs share: the system's Chromium (Debian `chromium`, never a
// downloaded one) started by puppeteer-core, and waiting for the calendar's fetches to settle.
import puppeteer from 'puppeteer-core';
import { existsSync } from 'node:fs';

// /usr/bin/chromium is Debian's wrapper script; the binary behind it starts the same browser
// without the wrapper's shell checks. CHROMIUM overrides both.
function chromiumPath() {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  return existsSync('/usr/lib/chromium/chromium') ? '/usr/lib/chromium/chromium' : '/usr/bin/chromium';
}

export async function launch() {
  // puppeteer gives the browser a fresh profile in TMPDIR and removes it on close().
  return puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    // --no-sandbox: the suite runs as root; the others keep a container's Chromium quiet.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-extensions'],
  });
}

// settle(page, after): until body[data-loading=false] with more fetches done than `after`.
export async function settle(page, after = 0) {
  await page.waitForFunction(
    (n) => document.body.dataset.loading === 'false' && Number(document.body.dataset.fetches || 0) > n,
    // Polled every 100 ms, not every frame: polling runs on the page's main thread and would
    // slow down the rendering that measure.mjs times.
    { timeout: 20000, polling: 100 }, after);
  return page.evaluate(() => Number(document.body.dataset.fetches));
}
