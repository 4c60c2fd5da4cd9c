import { describe, expect, test } from 'vitest';
import { paceInOrder, runLater } from './pacing.js';

describe('paceInOrder', () => {
  test('delivers in order even when the loop is late, and on time when it is not', async () => {
    const delivered: [number, number][] = [];
    const start = performance.now();
    const done = new Promise<void>((resolve) => {
      paceInOrder(
        6,
        (i) => i * 10,
        (i) => delivered.push([i, performance.now() - start]),
        resolve,
      );
    });
    // Block the loop past several due times: the overdue frames must still go out in order.
    const until = performance.now() + 35;
    while (performance.now() < until) {}
    await done;
    expect(delivered.map(([i]) => i)).toEqual([0, 1, 2, 3, 4, 5]);
    const last = delivered.at(-1)?.[1] ?? 0;
    expect(last).toBeGreaterThanOrEqual(50);
  });

  test('stops delivering when stopped, and never delivers synchronously', async () => {
    const delivered: number[] = [];
    let finished = false;
    const stop = paceInOrder(
      5,
      (i) => i * 20,
      (i) => delivered.push(i),
      () => (finished = true),
    );
    expect(delivered).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 30));
    stop();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(delivered.length).toBeGreaterThanOrEqual(1);
    expect(delivered.length).toBeLessThan(5);
    expect(finished).toBe(false);
  });

  test('finishes at once with nothing to deliver', async () => {
    await new Promise<void>((resolve) =>
      paceInOrder(
        0,
        () => 0,
        () => undefined,
        resolve,
      ),
    );
  });

  test('many streams share one timer and each keeps its order; same-time runs keep their scheduling order', async () => {
    const delivered: [number, number][] = [];
    const streams = 40;
    await Promise.all(
      Array.from(
        { length: streams },
        (_, s) =>
          new Promise<void>((resolve) => {
            paceInOrder(
              5,
              (i) => i * 7 + (s % 3),
              (i) => delivered.push([s, i]),
              resolve,
            );
          }),
      ),
    );
    for (let s = 0; s < streams; s++) {
      expect(delivered.filter(([stream]) => stream === s).map(([, i]) => i)).toEqual([0, 1, 2, 3, 4]);
    }
    const order: number[] = [];
    await new Promise<void>((resolve) => {
      for (let n = 0; n < 5; n++) runLater(5, () => order.push(n));
      runLater(6, resolve);
    });
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  test('cancelling every pending run leaves no timer to keep the process alive', () => {
    const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const stops = [runLater(60_000, () => undefined), runLater(30_000, () => undefined)];
    expect(timers()).toBe(before + 1);
    for (const stop of stops) stop();
    expect(timers()).toBe(before);
  });

  test('a run due beyond the longest timer Node keeps (24.8 days) waits: no timer that fires at once and re-arms every 1 ms', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on('warning', onWarning);
    let ran = false;
    const stop = runLater(2 ** 32, () => {
      ran = true;
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(ran).toBe(false);
      expect(warnings).not.toContain('TimeoutOverflowWarning');
    } finally {
      stop();
      process.off('warning', onWarning);
    }
  });
});
