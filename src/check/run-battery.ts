import type { BatteryLoad, BatteryProperty, PropertyResult } from './vocabulary.js';

/**
 * The stages the battery runs in, one after the other, and how many properties of a stage run at
 * once. Timing judgements never share the machine with megabyte transfers: the 50 ms row runs
 * alone, the 500 ms row (±250 ms) beside properties that mostly wait, and the heavy ones last.
 */
function stages(spawns: boolean): readonly { readonly loads: readonly BatteryLoad[]; readonly width: number }[] {
  // Over stdio every session starts a process, and process starts beside a timing row skew its
  // gaps on a busy machine: there the 500 ms row runs alone too, and fewer light rows at once.
  return spawns
    ? [
        { loads: ['tight', 'loose'], width: 1 },
        { loads: ['light'], width: 3 },
        { loads: ['heavy'], width: 2 },
      ]
    : [
        { loads: ['tight'], width: 1 },
        { loads: ['loose', 'light'], width: 6 },
        { loads: ['heavy'], width: 2 },
      ];
}

/** Options of {@link runBattery}. */
export interface BatteryRun {
  /** True when each session starts a process (a stdio client or upstream). */
  readonly spawns: boolean;
  /** Runs one property; never throws (a property turns its errors into a failing result). */
  readonly run: (property: BatteryProperty) => Promise<PropertyResult>;
  /** Called once per property, in battery order, as soon as it and every property before it are done. */
  readonly onResult?: (index: number, result: PropertyResult) => void;
}

/**
 * Runs `properties` stage by stage, several at once within a stage (loose timing rows first, so
 * they start on a quiet machine, then the ones that mostly wait), and returns their results in
 * battery order.
 */
export async function runBattery(
  properties: readonly BatteryProperty[],
  { spawns, run, onResult }: BatteryRun,
): Promise<PropertyResult[]> {
  const results: (PropertyResult | undefined)[] = properties.map(() => undefined);
  let reported = 0;
  const settle = (index: number, result: PropertyResult): void => {
    results[index] = result;
    for (; reported < results.length && results[reported]; reported++) {
      onResult?.(reported, results[reported] as PropertyResult);
    }
  };
  // MCP_GOLDEN_CHECK_TIMING=1 prints each property's start and wall time, to see where the time goes.
  const timing = process.env.MCP_GOLDEN_CHECK_TIMING ? performance.now() : undefined;
  const timed = async (property: BatteryProperty): Promise<PropertyResult> => {
    if (timing === undefined) return run(property);
    const started = performance.now();
    const result = await run(property);
    const at = (ms: number): string => `${Math.round(ms)}`.padStart(5);
    process.stderr.write(
      `[mcp-golden] timing: ${at(started - timing)} ms +${at(performance.now() - started)} ms ${property.load.padEnd(5)} ${property.name}\n`,
    );
    return result;
  };
  for (const stage of stages(spawns)) {
    const rank = (p: BatteryProperty): number => stage.loads.indexOf(p.load) * 2 + (p.waits ? 0 : 1);
    const queue = properties
      .map((property, index) => ({ property, index }))
      .filter(({ property }) => stage.loads.includes(property.load))
      .sort((a, b) => rank(a.property) - rank(b.property));
    // Rows beside a loose timing row can only delay it: a failure there is judged again alone, as
    // in a battery run one row at a time, so that only the gateway can fail it.
    const again: typeof queue = [];
    const worker = async (): Promise<void> => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const result = await timed(next.property);
        if (next.property.load === 'loose' && stage.width > 1 && result.verdict === 'fail') again.push(next);
        else settle(next.index, result);
      }
    };
    await Promise.all(Array.from({ length: Math.min(stage.width, queue.length) }, worker));
    for (const { property, index } of again) settle(index, await timed(property));
  }
  return results as PropertyResult[];
}
