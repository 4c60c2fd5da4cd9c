import { expect, test } from 'vitest';
import { type IdleTimers, SessionActivity, type SessionEndReason } from './session-activity.js';

/** Timers that run only when the test moves time on. */
function fakeTimers(): IdleTimers & { advance(ms: number): void; readonly pending: number } {
  let now = 0;
  const due = new Map<number, { at: number; run: () => void }>();
  let next = 0;
  return {
    schedule(ms, run) {
      const id = next++;
      due.set(id, { at: now + ms, run });
      return () => due.delete(id);
    },
    advance(ms) {
      now += ms;
      for (const [id, timer] of [...due]) {
        if (timer.at > now) continue;
        due.delete(id);
        timer.run();
      }
    },
    get pending() {
      return due.size;
    },
  };
}

function watch(idleMs = 5000) {
  const timers = fakeTimers();
  const ends: [string, SessionEndReason][] = [];
  const activity = new SessionActivity({ idleMs, timers, onEnd: (id, reason) => ends.push([id, reason]) });
  return { timers, ends, activity };
}

test('a session ends when the last connection that carried it closes, with no exchange open', () => {
  const { activity, ends } = watch();
  const a = {};
  const b = {};
  activity.opened(1, undefined, a);
  activity.answered(1, 's1');
  activity.closed(1);
  activity.opened(2, 's1', b);
  activity.closed(2);
  activity.disconnected(a);
  expect(ends).toEqual([]);
  activity.disconnected(b);
  expect(ends).toEqual([['s1', 'disconnect']]);
});

test('a session with an open stream does not end at a disconnect of another connection, and ends when the stream closes', () => {
  const { activity, ends } = watch();
  const post = {};
  const get = {};
  activity.opened(1, 's1', post);
  activity.closed(1);
  activity.opened(2, 's1', get);
  activity.disconnected(post);
  expect(ends).toEqual([]);
  activity.closed(2);
  activity.disconnected(get);
  expect(ends).toEqual([['s1', 'disconnect']]);
});

test('a quiet session ends after idleMs, and a request in between starts the wait afresh', () => {
  const { activity, ends, timers } = watch(5000);
  const socket = {};
  activity.opened(1, 's1', socket);
  activity.closed(1);
  timers.advance(4000);
  activity.opened(2, 's1', socket);
  timers.advance(4000);
  expect(ends).toEqual([]);
  activity.closed(2);
  timers.advance(4999);
  expect(ends).toEqual([]);
  timers.advance(1);
  expect(ends).toEqual([['s1', 'idle']]);
  // The connection closing later does not end it twice.
  activity.disconnected(socket);
  expect(ends).toHaveLength(1);
});

test('an open stream keeps a session from going idle', () => {
  const { activity, ends, timers } = watch(100);
  activity.opened(1, 's1', {});
  timers.advance(1000);
  expect(ends).toEqual([]);
  expect(timers.pending).toBe(0);
});

test('exchanges without a session id are the session "" and a DELETE ends its session at once', () => {
  const { activity, ends } = watch();
  const socket = {};
  activity.opened(1, undefined, socket);
  activity.answered(1, undefined);
  activity.closed(1);
  activity.opened(2, 's2', socket);
  activity.deleted('s2');
  expect(ends).toEqual([['s2', 'delete']]);
  activity.disconnected(socket);
  expect(ends).toEqual([
    ['s2', 'delete'],
    ['', 'disconnect'],
  ]);
});

test('a session used again after it ended ends again; after stop nothing ends', () => {
  const { activity, ends, timers } = watch(10);
  const socket = {};
  activity.opened(1, 's1', socket);
  activity.closed(1);
  timers.advance(10);
  activity.opened(2, 's1', socket);
  activity.closed(2);
  timers.advance(10);
  expect(ends).toEqual([
    ['s1', 'idle'],
    ['s1', 'idle'],
  ]);
  activity.opened(3, 's1', socket);
  activity.closed(3);
  activity.stop();
  timers.advance(10);
  activity.disconnected(socket);
  expect(ends).toHaveLength(2);
});
