/**
 * The battery: every row of the check, in the order it runs and is reported. Each row is written in
 * its family's file under `rows/` with the kit (`kit.ts`); it joins the battery by one entry here.
 * Only the runner (`run-check.ts`) imports this list.
 */
import { preservesBlocks, preservesUnicode } from '../invariants/invariants.js';
import { sessionAffinity } from './rows/affinity.js';
import { backToBack } from './rows/back-to-back.js';
import { blocks } from './rows/blocks.js';
import { cancelByClosing, cancellation } from './rows/cancellation.js';
import { concurrency, sharedToken } from './rows/concurrency.js';
import { deliveredOnce, getStream } from './rows/get-stream.js';
import { idleBudget } from './rows/idle.js';
import { multibyte } from './rows/multibyte.js';
import { inOrder } from './rows/order.js';
import { reissue, resume, resumeIsolation } from './rows/resume.js';
import { inputRounds } from './rows/rounds.js';
import { spacing } from './rows/spacing.js';
import { TASK_ROWS } from './rows/tasks.js';
import { noToken, tokens } from './rows/tokens.js';
import { contentLength, eventField, mcpHeaders } from './rows/wire.js';
import type { BatteryProperty } from './vocabulary.js';

export { longCall } from './rows/order.js';

/**
 * The whole battery, in the order it runs. The rows marked `era: 'modern'` (the 2026-07-28 duties)
 * come last, and are listed only when a leg speaks that era or `--only` names them.
 */
export const BATTERY: readonly BatteryProperty[] = [
  // Compared with the same call made directly (a reference recording).
  tokens('progress tokens (string)', ['check-token-é-🚀']),
  tokens('progress tokens (number)', [0, 9007199254740991]),
  noToken,
  spacing('progress streams live (50 ms steps)', 10, 50, 'tight'),
  spacing('progress streams live (500 ms steps)', 3, 500, 'loose'),
  blocks('blocks: count and order', 'light', { tool: 'chatty' }, preservesBlocks),
  blocks('unicode', 'light', { tool: 'chatty' }, preservesUnicode),
  blocks(
    'large output (50 x 64 KiB)',
    'heavy',
    { tool: 'long_output', arguments: { blocks: 50, chars: 65536 } },
    preservesBlocks,
  ),
  resume,
  // Judged by the upstream's own record, through one gateway session each.
  multibyte(8, 65536),
  backToBack,
  cancellation('string id, after progress 2', 'check-cancel-é', { progress: 2 }),
  cancellation('large numeric id, after progress 2', 9_007_199_254_740_991, { progress: 2 }),
  cancellation('no progress needed, after 300 ms', 'check-cancel-timed', { ms: 300 }),
  getStream,
  inOrder('burst (200 notifications at once)', 200, 0, 'heavy'),
  inOrder('slow reader (100 x 16 KiB notifications)', 100, 0, 'heavy', { pauseMs: 500, chars: 16384 }),
  concurrency,
  // Fault classes gateways shipped in 2025.
  eventField,
  deliveredOnce,
  sharedToken,
  contentLength,
  resumeIsolation,
  // n/a without a second upstream replica ({upstream2}).
  sessionAffinity,
  // The 2026-07-28 duties.
  cancelByClosing,
  mcpHeaders,
  reissue,
  // The tasks extension (io.modelcontextprotocol/tasks), modern to modern only.
  ...TASK_ROWS,
  inputRounds,
  idleBudget,
];
