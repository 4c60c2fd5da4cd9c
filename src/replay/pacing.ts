/** How fast to replay: at the recorded offsets, all at once, or scaled (`{ scale: 2 }` = half speed). */
export type Pace = 'recorded' | 'instant' | { readonly scale: number };

/** One waiting run: its due time (performance.now ms) and its place in line among runs due together. */
interface Due {
  readonly at: number;
  readonly seq: number;
  run: (() => void) | undefined;
}

/**
 * Longest delay `setTimeout` keeps (about 24.8 days): Node fires a longer one after 1 ms instead,
 * which would wake the scheduler every millisecond until the run is due. A run further off (a
 * long golden replayed at a large time scale) is reached by re-arming at this limit.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

const before = (a: Due, b: Due): boolean => a.at < b.at || (a.at === b.at && a.seq < b.seq);

/**
 * One timer for every paced stream in the process: a min-heap of due runs, and a single
 * `setTimeout` armed for the earliest. A thousand sessions then cost one timer wake-up per due
 * time, not one timer each, and everything due at a wake-up goes out in that one turn of the loop
 * (so writes to one socket in that turn leave in one batch). Runs due at the same time keep the
 * order they were scheduled in.
 */
class PaceScheduler {
  private heap: Due[] = [];
  private live = 0;
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private armedAt = Number.POSITIVE_INFINITY;

  /** Runs `run` at `at` (performance.now ms), never synchronously; returns its handle for {@link cancel}. */
  schedule(at: number, run: () => void): Due {
    const due: Due = { at, seq: this.seq++, run };
    this.push(due);
    this.live++;
    this.arm();
    return due;
  }

  /** Drops a scheduled run that has not run yet. */
  cancel(due: Due): void {
    if (!due.run) return;
    due.run = undefined;
    this.live--;
    // Nothing left to run: no timer keeps the process alive (a stdio replay that ended exits).
    if (this.live === 0) this.reset();
  }

  private wake = (): void => {
    this.timer = undefined;
    this.armedAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    // Runs made due by runs of this turn wait for the next one: a turn always ends.
    const last = this.seq;
    try {
      for (let top = this.heap[0]; top && top.at <= now && top.seq < last; top = this.heap[0]) {
        this.pop();
        const run = top.run;
        if (!run) continue;
        top.run = undefined;
        this.live--;
        run();
      }
    } finally {
      // Re-armed even when a run threw, so one stream's failure never stalls every other stream.
      if (this.live === 0) this.reset();
      else this.arm();
    }
  };

  private arm(): void {
    const first = this.heap[0];
    if (!first || first.at >= this.armedAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.armedAt = first.at;
    this.timer = setTimeout(this.wake, Math.min(MAX_TIMER_MS, Math.max(0, first.at - performance.now())));
  }

  private reset(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedAt = Number.POSITIVE_INFINITY;
    this.heap = [];
  }

  private push(due: Due): void {
    const heap = this.heap;
    let i = heap.push(due) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(due, heap[parent] as Due)) break;
      heap[i] = heap[parent] as Due;
      i = parent;
    }
    heap[i] = due;
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop() as Due;
    if (heap.length === 0) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && before(heap[right] as Due, heap[left] as Due) ? right : left;
      if (!before(heap[child] as Due, last)) break;
      heap[i] = heap[child] as Due;
      i = child;
    }
    heap[i] = last;
  }
}

const scheduler = new PaceScheduler();

/** Runs `run` after `delayMs` on the shared pace timer, never synchronously; returns its canceller. */
export function runLater(delayMs: number, run: () => void): () => void {
  const due = scheduler.schedule(performance.now() + delayMs, run);
  return () => scheduler.cancel(due);
}

/**
 * Runs `deliver(i)` for each offset in order, each at `start + delayMs(i)`, one pending run at a time.
 *
 * One timer per frame would be simpler, but Node fires timers of different durations out of order
 * when the event loop runs late (a busy machine, many sessions): frame 5 of a stream could go out
 * before frame 4. Chaining keeps the order, and measuring every delay from the same start keeps
 * lateness from accumulating. Frames already due when the loop wakes are delivered at once.
 * Every stream shares one timer (see {@link PaceScheduler}); `flush` runs after each batch of
 * deliveries, so a stream's writes leave before the next stream due at the same wake-up is served.
 *
 * @returns a function that stops the remaining deliveries
 */
export function paceInOrder(
  count: number,
  delayMs: (index: number) => number,
  deliver: (index: number) => void,
  done: () => void,
  flush?: () => void,
): () => void {
  const start = performance.now();
  let next = 0;
  let pending: Due | undefined;
  let stopped = false;
  const run = (): void => {
    pending = undefined;
    const first = next;
    while (!stopped && next < count && start + delayMs(next) <= performance.now()) deliver(next++);
    if (stopped) return;
    if (next >= count) {
      done();
      return;
    }
    // What this stream just delivered leaves now, before the other streams due at this wake-up.
    if (next > first) flush?.();
    pending = scheduler.schedule(start + delayMs(next), run);
  };
  // Never deliver synchronously: the caller gets the stopper before anything happens.
  pending = scheduler.schedule(count === 0 ? start : start + delayMs(0), run);
  return () => {
    stopped = true;
    if (pending) scheduler.cancel(pending);
    pending = undefined;
  };
}
