/** How fast to replay: at the recorded offsets, all at once, or scaled (`{ scale: 2 }` = half speed). */
export type Pace = 'recorded' | 'instant' | { readonly scale: number };

/**
 * Runs `deliver(i)` for each offset in order, each at `start + delayMs(i)`, on one timer at a time.
 *
 * One timer per frame would be simpler, but Node fires timers of different durations out of order
 * when the event loop runs late (a busy machine, many sessions): frame 5 of a stream could go out
 * before frame 4. Chaining keeps the order, and measuring every delay from the same start keeps
 * lateness from accumulating. Frames already due when the loop wakes are delivered at once.
 *
 * @returns a function that stops the remaining deliveries
 */
export function paceInOrder(
  count: number,
  delayMs: (index: number) => number,
  deliver: (index: number) => void,
  done: () => void,
  now: () => number = () => performance.now(),
): () => void {
  const start = now();
  let next = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const run = (): void => {
    timer = undefined;
    while (!stopped && next < count && start + delayMs(next) <= now()) deliver(next++);
    if (stopped) return;
    if (next >= count) {
      done();
      return;
    }
    timer = setTimeout(run, Math.max(0, start + delayMs(next) - now()));
  };
  // Never deliver synchronously: the caller gets the stopper before anything happens.
  timer = setTimeout(run, count === 0 ? 0 : Math.max(0, start + delayMs(0) - now()));
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
