import { GoldenError } from '../errors.js';
import type { Pace } from './pacing.js';

/**
 * Checks a `pace` option where a replay is created (server, msw handlers, stdio), not only in the
 * CLI: a scale that is not a positive finite number would put a due time that never comes (NaN) or
 * a negative wait on the pacer's timers, which every replay in the process shares.
 */
export function checkPace(pace: unknown): asserts pace is Pace | undefined {
  if (pace === undefined || pace === 'recorded' || pace === 'instant') return;
  const scale = typeof pace === 'object' && pace !== null ? (pace as { scale?: unknown }).scale : undefined;
  if (typeof scale === 'number' && Number.isFinite(scale) && scale > 0) return;
  const got =
    typeof pace === 'object' && pace !== null
      ? `{ scale: ${typeof scale === 'string' ? JSON.stringify(scale) : String(scale)} }`
      : (JSON.stringify(pace) ?? String(pace));
  throw new GoldenError(
    'E_USAGE',
    `Invalid replay option pace: expected 'recorded', 'instant' or { scale: n } with n a positive finite number (2 = half speed), got ${got}. Fix the pace option (or --pace on the CLI).`,
  );
}
