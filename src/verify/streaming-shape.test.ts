import { describe, expect, it } from 'vitest';
import type { Call } from '../transcript/read-calls.js';
import { progressShapeChange } from './streaming-shape.js';

/** A call whose progress arrived at `progressMs` and whose result arrived at `resultMs`. */
function view(progressMs: readonly number[], resultMs: number): Call {
  // Frame order follows arrival time here: the times are the order.
  const arrival = (atMs: number, message: Record<string, unknown>) => ({
    message,
    atMs,
    read: 0,
    order: atMs,
    t: atMs * 1000,
    exchange: 1,
    eventId: undefined,
    replayed: false,
    repeated: false,
  });
  return {
    order: 0,
    t: 0,
    exchange: 1,
    request: undefined,
    hasToken: true,
    token: 't',
    progress: progressMs.map((at, i) => arrival(at, { method: 'notifications/progress', params: { progress: i + 1 } })),
    response: arrival(resultMs, { id: 1, result: {} }),
    cancelAtMs: undefined,
    reads: 1,
    maxMessagesPerRead: 1,
  };
}

const golden = view([5, 155, 305, 455], 605);

describe('progressShapeChange', () => {
  it('says so when every notification now arrives with the result', () => {
    expect(progressShapeChange(golden, view([601, 601.5, 602, 603], 603))).toBe(
      'progress no longer streams: 4 of 4 notifications within 2 ms of the result; the golden spread them over 600 ms',
    );
  });

  it('never fails a faithful server: jitter, stalls, slower or faster steps', () => {
    const faithful = [
      view([9, 240, 300, 530], 700), // gaps off by 50% and more on a loaded machine
      view([400, 410, 420, 430], 900), // a 400 ms stall before the first, then the rest at once, result later
      view([5, 55, 105, 155], 205), // the server got faster
      view([5, 1005, 2005, 3005], 4005), // the server got slower
      view([5, 155, 305], 605), // one lost (the count check reports that), the rest still stream
    ];
    for (const live of faithful) expect(progressShapeChange(golden, live)).toBeUndefined();
  });

  it('does not judge a golden that did not spread its progress, or a call without enough of it', () => {
    expect(progressShapeChange(view([600, 601, 602, 603], 604), view([600, 601, 602, 603], 604))).toBeUndefined();
    expect(progressShapeChange(golden, view([603], 603))).toBeUndefined();
  });
});
