import { describe, expect, test } from 'vitest';
import { paceInOrder } from './pacing.js';

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
});
