import type { PaceClock } from '../../src/replay/pacing.js';

interface Armed {
  readonly at: number;
  readonly wake: () => void;
}

/**
 * A pace clock that moves only when the test says: `advance` fires each armed wake-up at its own
 * time (one wake-up is one turn of the loop), `block` moves time without firing anything (the event
 * loop was busy), and `fireNext` runs exactly one turn.
 */
export class FakePaceClock implements PaceClock {
  private t = 0;
  private ids = 0;
  private readonly timers = new Map<number, Armed>();
  /** Every delay the pacer armed, in order. */
  readonly armedDelays: number[] = [];

  now(): number {
    return this.t;
  }

  arm(delayMs: number, wake: () => void): unknown {
    this.armedDelays.push(delayMs);
    const id = ++this.ids;
    this.timers.set(id, { at: this.t + delayMs, wake });
    return id;
  }

  disarm(timer: unknown): void {
    this.timers.delete(timer as number);
  }

  /** Wake-ups armed and not yet fired. */
  get armed(): number {
    return this.timers.size;
  }

  /** Moves time on by `ms` without firing anything, as a busy event loop does. */
  block(ms: number): void {
    this.t += ms;
  }

  /** Fires the earliest armed wake-up that is due by now (one turn); false when none is. */
  fireNext(): boolean {
    const next = this.earliest();
    if (!next || next[1].at > this.t) return false;
    this.timers.delete(next[0]);
    next[1].wake();
    return true;
  }

  /** Moves time on by `ms`, firing each wake-up at its own time, earliest first (armed order among equal ones). */
  advance(ms: number): void {
    const until = this.t + ms;
    for (let next = this.earliest(); next && next[1].at <= until; next = this.earliest()) {
      this.t = Math.max(this.t, next[1].at);
      this.timers.delete(next[0]);
      next[1].wake();
    }
    this.t = until;
  }

  private earliest(): [number, Armed] | undefined {
    let best: [number, Armed] | undefined;
    for (const entry of this.timers) if (!best || entry[1].at < best[1].at) best = entry;
    return best;
  }
}
