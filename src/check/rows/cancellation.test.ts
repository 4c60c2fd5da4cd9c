import { describe, expect, test } from 'vitest';
import type { AuditEntry } from '../../server/audit-log.js';
import type { Arrival, CallSeen } from '../check-session.js';
import { unsentAfterCancel } from './cancellation.js';

const progress = (value: number, atMs: number): Arrival => ({
  message: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: value } },
  atMs,
});

/** A call cancelled at 300 ms: progress 1-5 arrived before, `after` after. */
function seenWith(after: Arrival[]): CallSeen {
  return {
    plan: { tool: 'progress_tight', arguments: {}, id: 1, token: 't' },
    startedEpochMs: 1000,
    progress: [1, 2, 3, 4, 5].map((v) => progress(v, v * 50 + 10)),
    afterCancel: after,
    cancelledAtMs: 300,
  };
}

/** The upstream sent progress 1-6, the 6th 5 ms before the client's cancel, and saw the cancel at 320 ms. */
const audit = {
  notifications: [1, 2, 3, 4, 5, 6].map((v) => ({ progress: v, total: 40, message: '', sentAtMs: v * 50 - 5 })),
  cancelledAtMs: 320,
} as unknown as AuditEntry;

describe('what may still arrive after a cancel', () => {
  test('a notification the upstream sent before the cancel reached it is in flight, however late it arrives', () => {
    expect(unsentAfterCancel(seenWith([progress(6, 420)]), audit)).toEqual([]);
  });

  test('a notification the upstream never sent, or one the client already had, was invented or repeated', () => {
    expect(unsentAfterCancel(seenWith([progress(7, 330)]), audit)).toEqual([7]);
    expect(unsentAfterCancel(seenWith([progress(5, 330)]), audit)).toEqual([5]);
    expect(unsentAfterCancel(seenWith([progress(6, 330), progress(6, 340)]), audit)).toEqual([6]);
  });
});
