import { describe, expect, test } from 'vitest';
import { FakePaceClock } from '../../test/support/fake-pace-clock.js';
import { streamOffsets } from './live-event.js';
import { createPacer, runLater } from './pacing.js';
import { ReplayEngine } from './replay-engine.js';

// Order, ties, stops and scales in fake time: nothing here waits on a real timer, so nothing here
// depends on the machine's load. The real loop's figures are in replay-server-pacing.test.ts.

const fake = () => {
  const clock = new FakePaceClock();
  return { clock, pacer: createPacer(clock) };
};

describe('paceInOrder', () => {
  test('delivers overdue frames in order in one turn when the loop is late, and the rest on time', () => {
    const { clock, pacer } = fake();
    const delivered: [number, number][] = [];
    let doneAt: number | undefined;
    pacer.paceInOrder(
      6,
      (i) => i * 10,
      (i) => delivered.push([i, clock.now()]),
      () => (doneAt = clock.now()),
    );
    clock.block(35);
    expect(clock.fireNext()).toBe(true);
    expect(delivered).toEqual([
      [0, 35],
      [1, 35],
      [2, 35],
      [3, 35],
    ]);
    clock.advance(100);
    expect(delivered.slice(4)).toEqual([
      [4, 40],
      [5, 50],
    ]);
    expect(doneAt).toBe(50);
    expect(clock.armed).toBe(0);
  });

  test('takes the delays as a list, read in place: the same times as the function giving them', () => {
    const times = (delays: ((i: number) => number) | readonly number[]) => {
      const { clock, pacer } = fake();
      const delivered: [number, number][] = [];
      pacer.paceInOrder(
        4,
        delays,
        (i) => delivered.push([i, clock.now()]),
        () => delivered.push([-1, clock.now()]),
      );
      clock.block(15);
      clock.advance(100);
      return delivered;
    };
    expect(times([0, 10, 10, 30])).toEqual(times((i) => [0, 10, 10, 30][i] as number));
    expect(times([0, 10, 10, 30])).toEqual([
      [0, 15],
      [1, 15],
      [2, 15],
      [3, 30],
      [-1, 30],
    ]);
  });

  test("a recording's stream offsets are one shared, frozen list per head offset", () => {
    const events = [{ offsetUs: 5 }, { offsetUs: 9, read: 1 }, { offsetUs: 12, read: 1 }];
    const offsets = streamOffsets(events, 2);
    expect(offsets).toEqual([2, 5, 9, 9]);
    expect(Object.isFrozen(offsets)).toBe(true);
    expect(streamOffsets(events, 2)).toBe(offsets);
    expect(streamOffsets(events, 7)).toEqual([7, 7, 9, 9]);
  });

  test('never delivers synchronously; a stopped stream delivers nothing more, never finishes and leaves no timer', () => {
    const { clock, pacer } = fake();
    const delivered: number[] = [];
    let finished = false;
    const stop = pacer.paceInOrder(
      5,
      (i) => i * 20,
      (i) => delivered.push(i),
      () => (finished = true),
    );
    expect(delivered).toEqual([]);
    clock.advance(30);
    expect(delivered).toEqual([0, 1]);
    stop();
    expect(clock.armed).toBe(0);
    clock.advance(1000);
    expect(delivered).toEqual([0, 1]);
    expect(finished).toBe(false);
  });

  test('a stream stopped before its first frame delivers nothing', () => {
    const { clock, pacer } = fake();
    const delivered: number[] = [];
    pacer.paceInOrder(
      3,
      () => 0,
      (i) => delivered.push(i),
      () => delivered.push(-1),
    )();
    clock.advance(10);
    expect(delivered).toEqual([]);
  });

  test('finishes on the next turn with nothing to deliver', () => {
    const { clock, pacer } = fake();
    let finished = false;
    pacer.paceInOrder(
      0,
      () => 0,
      () => undefined,
      () => (finished = true),
    );
    expect(finished).toBe(false);
    clock.advance(0);
    expect(finished).toBe(true);
  });

  test('streams sharing one timer each keep their order, and go out by due time across streams', () => {
    const { clock, pacer } = fake();
    const delivered: [number, number, number][] = [];
    for (let s = 0; s < 3; s++) {
      pacer.paceInOrder(
        3,
        (i) => i * 7 + s,
        (i) => delivered.push([clock.now(), s, i]),
        () => undefined,
      );
    }
    expect(clock.armed).toBe(1);
    clock.advance(100);
    expect(delivered).toEqual([
      [0, 0, 0],
      [1, 1, 0],
      [2, 2, 0],
      [7, 0, 1],
      [8, 1, 1],
      [9, 2, 1],
      [14, 0, 2],
      [15, 1, 2],
      [16, 2, 2],
    ]);
  });

  test('streams due at the same times go out in the order they were scheduled, at every step', () => {
    const { clock, pacer } = fake();
    const delivered: string[] = [];
    for (const s of ['a', 'b', 'c', 'd', 'e']) {
      pacer.paceInOrder(
        3,
        (i) => i * 10,
        (i) => delivered.push(`${s}${i}`),
        () => undefined,
      );
    }
    clock.advance(100);
    expect(delivered).toEqual([
      'a0',
      'b0',
      'c0',
      'd0',
      'e0',
      'a1',
      'b1',
      'c1',
      'd1',
      'e1',
      'a2',
      'b2',
      'c2',
      'd2',
      'e2',
    ]);
  });

  test('flushes after each batch a stream delivers, before the next stream due at the same wake-up', () => {
    const { clock, pacer } = fake();
    const log: string[] = [];
    for (const s of ['a', 'b']) {
      pacer.paceInOrder(
        3,
        (i) => (i < 2 ? 0 : 10),
        (i) => log.push(`${s}${i}`),
        () => log.push(`${s} done`),
        () => log.push(`${s} flush`),
      );
    }
    clock.advance(100);
    expect(log).toEqual(['a0', 'a1', 'a flush', 'b0', 'b1', 'b flush', 'a2', 'a done', 'b2', 'b done']);
  });
});

describe('runLater', () => {
  test('runs due at the same time run in the order they were scheduled', () => {
    const { clock, pacer } = fake();
    const order: number[] = [];
    for (let n = 0; n < 7; n++) pacer.runLater(5, () => order.push(n));
    pacer.runLater(3, () => order.push(-1));
    clock.advance(10);
    expect(order).toEqual([-1, 0, 1, 2, 3, 4, 5, 6]);
  });

  test('a run made due during a turn waits for the next turn: a turn always ends', () => {
    const { clock, pacer } = fake();
    const order: string[] = [];
    pacer.runLater(0, () => {
      order.push('first');
      pacer.runLater(0, () => order.push('made due in the turn'));
    });
    pacer.runLater(0, () => order.push('second'));
    expect(clock.fireNext()).toBe(true);
    expect(order).toEqual(['first', 'second']);
    expect(clock.armed).toBe(1);
    expect(clock.fireNext()).toBe(true);
    expect(order).toEqual(['first', 'second', 'made due in the turn']);

    // A run that schedules itself at once forever still lets each turn end.
    let runs = 0;
    const again = (): void => {
      if (++runs < 1000) pacer.runLater(0, again);
    };
    pacer.runLater(0, again);
    expect(clock.fireNext()).toBe(true);
    expect(runs).toBe(1);
  });

  test('a run that throws does not stall the others: the timer is armed again', () => {
    const { clock, pacer } = fake();
    const order: number[] = [];
    pacer.runLater(1, () => {
      throw new Error('one stream failed');
    });
    pacer.runLater(2, () => order.push(2));
    expect(() => clock.advance(1)).toThrow('one stream failed');
    clock.advance(5);
    expect(order).toEqual([2]);
  });

  test('cancelling every pending run disarms the timer', () => {
    const { clock, pacer } = fake();
    const stops = [pacer.runLater(60_000, () => undefined), pacer.runLater(30_000, () => undefined)];
    expect(clock.armed).toBe(1);
    for (const stop of stops) stop();
    expect(clock.armed).toBe(0);
  });

  test('a run due beyond the longest timer Node keeps (24.8 days) is reached by re-arming at that limit', () => {
    const { clock, pacer } = fake();
    let ranAt: number | undefined;
    pacer.runLater(2 ** 32, () => (ranAt = clock.now()));
    clock.advance(2 ** 32 - 1);
    expect(ranAt).toBeUndefined();
    clock.advance(1);
    expect(ranAt).toBe(2 ** 32);
    expect(Math.max(...clock.armedDelays)).toBe(2 ** 31 - 1);
  });

  test('on the real clock, cancelling every pending run leaves no timer to keep the process alive', () => {
    const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const stops = [runLater(60_000, () => undefined), runLater(30_000, () => undefined)];
    expect(timers()).toBe(before + 1);
    for (const stop of stops) stop();
    expect(timers()).toBe(before);
  });
});

describe('the pace option', () => {
  const ping = { jsonrpc: '2.0', id: 1, method: 'ping' } as const;
  const played = (pace: 'recorded' | 'instant' | { scale: number }): string[] => {
    const clock = new FakePaceClock();
    const engine = new ReplayEngine([], { pace }, createPacer(clock));
    const session = engine.openSession('http');
    const answer = engine.receive(session, ping);
    if (answer.kind !== 'call') throw new Error(`ping not answered: ${answer.kind}`);
    const times: string[] = [];
    engine.play(
      answer.call,
      [0, 100_000, 250_000, 1_000_000],
      (i) => times.push(`${i}@${clock.now()}`),
      () => undefined,
    );
    engine.later(session, 500_000, () => times.push(`later@${clock.now()}`));
    clock.advance(10_000);
    engine.close();
    return times;
  };

  test('recorded pace delivers at the recorded offsets, a scale stretches them, instant sends all at once', () => {
    expect(played('recorded')).toEqual(['0@0', '1@100', '2@250', 'later@500', '3@1000']);
    expect(played({ scale: 2 })).toEqual(['0@0', '1@200', '2@500', 'later@1000', '3@2000']);
    expect(played({ scale: 0.5 })).toEqual(['0@0', '1@50', '2@125', 'later@250', '3@500']);
    expect(played('instant')).toEqual(['0@0', '1@0', '2@0', '3@0', 'later@0']);
  });
});
