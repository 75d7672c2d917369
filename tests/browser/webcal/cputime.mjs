// The renderer main thread's CPU time from navigation to the first-render mark, read from a
// Chrome trace (its thread clock, `tts`): on a shared, busy machine the wall time measure.mjs
// reports also holds the time the page waited for a core; this does not.
import { readFileSync, rmSync } from 'node:fs';

export const traceCategories = ['toplevel', 'devtools.timeline', 'blink.user_timing', '__metadata'];

// mainThreadCpu(file): milliseconds of thread time of the page's main thread between its first
// task after navigationStart and the "cal:first-render" mark, or NaN when the trace lacks them.
export function mainThreadCpu(file) {
  const events = JSON.parse(readFileSync(file, 'utf8')).traceEvents;
  rmSync(file, { force: true });
  const mark = events.find((e) => e.name === 'cal:first-render');
  const nav = events.find((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL);
  if (!mark || !nav || mark.tts === undefined) return NaN;
  const first = events.filter((e) => e.pid === mark.pid && e.tid === mark.tid && e.tts !== undefined && e.ts >= nav.ts)
    .sort((a, b) => a.ts - b.ts)[0];
  return first ? (mark.tts - first.tts) / 1000 : NaN;
}
