import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { runBattery } from './run-battery.js';
import type { BatteryLoad, BatteryProperty, PropertyResult } from './vocabulary.js';

const fake = (name: string, load: BatteryLoad, ms: number, waits = false): BatteryProperty => ({
  name,
  load,
  waits,
  run: async () => {
    await sleep(ms);
    return { property: name, verdict: 'pass', evidence: '', numbers: {}, calls: [] };
  },
});

/** Runs the battery and records each property's [start, end] in ms. */
async function trace(properties: BatteryProperty[], spawns = false) {
  const spans = new Map<string, [number, number]>();
  const reported: number[] = [];
  const t0 = performance.now();
  const results = await runBattery(properties, {
    spawns,
    run: async (p) => {
      const start = performance.now() - t0;
      const result: PropertyResult = await p.run(undefined as never);
      spans.set(p.name, [start, performance.now() - t0]);
      return result;
    },
    onResult: (index) => reported.push(index),
  });
  const overlap = (a: string, b: string): boolean => {
    const [s1, e1] = spans.get(a) as [number, number];
    const [s2, e2] = spans.get(b) as [number, number];
    return s1 < e2 && s2 < e1;
  };
  return { results, reported, spans, overlap };
}

describe('runBattery', () => {
  const battery = [
    fake('light-a', 'light', 30),
    fake('tight', 'tight', 40),
    fake('heavy-a', 'heavy', 30),
    fake('loose', 'loose', 120),
    fake('light-b', 'light', 30),
    fake('heavy-b', 'heavy', 30),
    fake('heavy-c', 'heavy', 30, true),
  ];

  test('returns and reports results in battery order, whatever order they finish in', async () => {
    const { results, reported } = await trace(battery);
    expect(results.map((r) => r.property)).toEqual(battery.map((p) => p.name));
    expect(reported).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  test('runs a tight row alone, light rows beside the loose one, heavy rows beside heavy ones only', async () => {
    const { overlap } = await trace(battery);
    for (const other of ['light-a', 'light-b', 'loose', 'heavy-a', 'heavy-b', 'heavy-c'])
      expect(overlap('tight', other)).toBe(false);
    expect(overlap('loose', 'light-a')).toBe(true);
    expect(overlap('loose', 'light-b')).toBe(true);
    for (const heavy of ['heavy-a', 'heavy-b', 'heavy-c']) {
      expect(overlap('loose', heavy)).toBe(false);
      expect(overlap('light-a', heavy)).toBe(false);
    }
    // Two heavy rows at once, the one that waits first: the third starts when one of them is done.
    expect(overlap('heavy-c', 'heavy-a')).toBe(true);
    expect(overlap('heavy-b', 'heavy-a') && overlap('heavy-b', 'heavy-c')).toBe(false);
  });

  test('a loose row that fails beside others is judged again alone, and that verdict counts', async () => {
    let runs = 0;
    const flaky: BatteryProperty = {
      name: 'loose',
      load: 'loose',
      run: async () => {
        runs += 1;
        await sleep(40);
        const verdict = runs === 1 ? 'fail' : 'pass';
        return { property: 'loose', verdict, evidence: '', numbers: {}, calls: [] };
      },
    };
    const { results, reported, spans, overlap } = await trace([fake('light-a', 'light', 60), flaky]);
    expect(runs).toBe(2);
    expect(results.map((r) => r.verdict)).toEqual(['pass', 'pass']);
    expect(reported).toEqual([0, 1]);
    // The second run started after the light row was done.
    expect(overlap('loose', 'light-a')).toBe(false);
    expect(spans.size).toBe(2);
  });

  test('when every session starts a process, the loose row runs alone too', async () => {
    const { overlap } = await trace(battery, true);
    for (const other of ['light-a', 'light-b', 'tight', 'heavy-a']) expect(overlap('loose', other)).toBe(false);
  });

  test('starts fewer light rows at once when every session starts a process', async () => {
    const many = Array.from({ length: 6 }, (_, i) => fake(`light-${i}`, 'light', 40));
    const concurrent = (spans: Map<string, [number, number]>): number => {
      const all = [...spans.values()];
      return Math.max(...all.map(([s]) => all.filter(([s2, e2]) => s2 <= s && s < e2).length));
    };
    expect(concurrent((await trace(many, false)).spans)).toBe(6);
    expect(concurrent((await trace(many, true)).spans)).toBe(3);
  });
});
