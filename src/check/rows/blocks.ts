/** The blocks family: a result's content blocks arrive whole, in order, their text unchanged, however large. */
import type { preservesBlocks } from '../../invariants/invariants.js';
import type { Scenario } from '../../record/scenario.js';
import { failedRecording, fromInvariant, pair, row } from '../kit.js';
import type { BatteryLoad, BatteryProperty } from '../vocabulary.js';

/** Calls `scenario` directly and through the gateway, and judges the two results with `judge`. */
export const blocks = (
  name: string,
  load: BatteryLoad,
  scenario: Scenario,
  judge: typeof preservesBlocks,
): BatteryProperty =>
  row(
    name,
    load,
    async (context) => {
      const { received, reference } = await pair(context, scenario);
      return fromInvariant(name, judge(received, reference), []);
    },
    { onError: failedRecording },
  );
