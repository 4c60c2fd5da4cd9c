/** How often the watch's timer ticks, in ms. */
const TICK_MS = 5;

/**
 * Runs `run` while a timer ticks every few ms, and resolves with its value and the longest stretch
 * (ms) the timer went without a tick beyond its period: a time this process ran nothing, its loop
 * blocked or the machine busy elsewhere. A read that came in then was stamped late and the next one
 * early, so gaps measured across such a stretch are the machine's, not the path's.
 */
export async function watchStalls<T>(run: () => Promise<T>): Promise<{ value: T; longestStallMs: number }> {
  let longest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - TICK_MS);
    last = now;
  }, TICK_MS);
  try {
    const value = await run();
    longest = Math.max(longest, performance.now() - last - TICK_MS);
    return { value, longestStallMs: Math.max(0, longest) };
  } finally {
    clearInterval(timer);
  }
}
