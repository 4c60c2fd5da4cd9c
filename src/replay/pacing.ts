/** How fast to replay: at the recorded offsets, all at once, or scaled (`{ scale: 2 }` = half speed). */
export type Pace = 'recorded' | 'instant' | { readonly scale: number };

/**
 * The time the pacer reads and the one timer it arms. The real one is `performance.now()` and
 * `setTimeout`; a test passes a fake one to step through order, ties, stops and scales in fake time.
 */
export interface PaceClock {
  /** Now, in ms since a fixed origin; never goes back. */
  now(): number;
  /** Calls `wake` once, `delayMs` from now and never synchronously; returns what {@link disarm} takes. */
  arm(delayMs: number, wake: () => void): unknown;
  /** Cancels an armed wake-up that has not fired yet. */
  disarm(timer: unknown): void;
}

/** The real clock: `performance.now()` and one `setTimeout`. */
export const realPaceClock: PaceClock = {
  now: () => performance.now(),
  arm: (delayMs, wake) => setTimeout(wake, delayMs),
  disarm: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

/** One waiting run: its due time (clock ms) and its place in line among runs due together. */
interface Due {
  at: number;
  seq: number;
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
  private timer: unknown;
  private armed = false;
  private armedAt = Number.POSITIVE_INFINITY;

  constructor(readonly clock: PaceClock) {}

  /** Runs `run` at `at` (clock ms), never synchronously; returns its handle for {@link cancel}. */
  schedule(at: number, run: () => void, reuse?: Due): Due {
    // A run that has run (so is out of the heap) may be handed back: a stream's every step then
    // reuses its one handle instead of allocating one per frame.
    const due: Due = reuse ?? { at, seq: 0, run };
    due.at = at;
    due.seq = this.seq++;
    due.run = run;
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
    this.armed = false;
    this.armedAt = Number.POSITIVE_INFINITY;
    const now = this.clock.now();
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
    this.disarm();
    this.armedAt = first.at;
    this.timer = this.clock.arm(Math.min(MAX_TIMER_MS, Math.max(0, first.at - this.clock.now())), this.wake);
    this.armed = true;
  }

  private disarm(): void {
    if (this.armed) this.clock.disarm(this.timer);
    this.armed = false;
    this.timer = undefined;
  }

  private reset(): void {
    this.disarm();
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

/** Runs paced work on one clock: every stream paced by one pacer shares its one timer. */
export interface Pacer {
  /** Runs `run` after `delayMs`, never synchronously; returns its canceller. */
  runLater(delayMs: number, run: () => void): () => void;
  /**
   * Runs `deliver(i)` for each offset in order, each at `start + delayMs(i)`, one pending run at a time.
   * `delayMs` may be the list of delays itself: a list shared by every stream of one recording is
   * read in place, where a function per stream would be a closure each and box every delay it returns.
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
  paceInOrder(
    count: number,
    delayMs: ((index: number) => number) | readonly number[],
    deliver: (index: number) => void,
    done: () => void,
    flush?: () => void,
  ): () => void;
}

/** The `index`th delay of {@link Pacer.paceInOrder}'s `delayMs`, a function or a list. */
function delayAt(delayMs: ((index: number) => number) | readonly number[], index: number): number {
  return typeof delayMs === 'function' ? delayMs(index) : (delayMs[index] as number);
}

/**
 * A pacer on `clock`.
 *
 * @default clock {@link realPaceClock}
 */
export function createPacer(clock: PaceClock = realPaceClock): Pacer {
  const scheduler = new PaceScheduler(clock);
  return {
    runLater(delayMs, run) {
      const due = scheduler.schedule(clock.now() + delayMs, run);
      return () => scheduler.cancel(due);
    },
    paceInOrder(count, delayMs, deliver, done, flush) {
      const start = clock.now();
      let next = 0;
      let pending: Due | undefined;
      let stopped = false;
      const run = (): void => {
        // The scheduler popped this run's handle before running it: it is free to be scheduled again.
        const ran = pending;
        pending = undefined;
        const first = next;
        while (!stopped && next < count && start + delayAt(delayMs, next) <= clock.now()) deliver(next++);
        if (stopped) return;
        if (next >= count) {
          done();
          return;
        }
        // What this stream just delivered leaves now, before the other streams due at this wake-up.
        if (next > first) flush?.();
        pending = scheduler.schedule(start + delayAt(delayMs, next), run, ran);
      };
      // Never deliver synchronously: the caller gets the stopper before anything happens.
      pending = scheduler.schedule(count === 0 ? start : start + delayAt(delayMs, 0), run);
      return () => {
        stopped = true;
        if (pending) scheduler.cancel(pending);
        pending = undefined;
      };
    },
  };
}

/** The process's pacer on the real clock: every replay in the process shares its one timer. */
export const realPacer: Pacer = createPacer();

/** {@link Pacer.runLater} on the process's real pacer. */
export const runLater: Pacer['runLater'] = realPacer.runLater;

/** {@link Pacer.paceInOrder} on the process's real pacer. */
export const paceInOrder: Pacer['paceInOrder'] = realPacer.paceInOrder;
