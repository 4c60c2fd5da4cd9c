import { setTimeout as sleep } from 'node:timers/promises';
import { describeError } from '../errors.js';
import type { AuditEntry } from '../server/audit-log.js';
import { memberOf } from '../transcript/json-object.js';

/**
 * The rows of `audit` whose call carried `arguments.tag === tag`, once at least `atLeast` exist and
 * all have ended, or once `waitMs` passed (then whatever is there). A log that cannot be read counts
 * as empty.
 */
export async function rowsTagged(
  audit: () => Promise<AuditEntry[]>,
  tag: string,
  waitMs: number,
  atLeast = 1,
): Promise<AuditEntry[]> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const rows = (await audit().catch(() => [] as AuditEntry[])).filter((e) => memberOf(e.arguments, 'tag') === tag);
    if ((rows.length >= atLeast && rows.every((r) => r.outcome !== 'running')) || Date.now() > deadline) return rows;
    await sleep(25);
  }
}

/** The first line of an error's text, for evidence. */
export function firstLineOf(error: unknown): string {
  const text = describeError(error);
  return text.split('\n')[0] ?? text;
}
