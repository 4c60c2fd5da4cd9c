import type { Frame, Transcript } from '../transcript/frame.js';
import { assignStdioExchanges } from './stdio-wire-session.js';

/**
 * One golden of a stdio client that started its server more than once, one session after the
 * other (the SDK v2 client starts a copy only to ask `server/discover`, then the one it uses): the
 * sessions' lines in order, each later session's times after the earlier's, the ends of all but
 * the last session left out, exchanges numbered again across them. The header is the last one's.
 */
export function joinStdioSessions(sessions: readonly Transcript[]): Transcript {
  const last = sessions.at(-1);
  if (last === undefined) throw new RangeError('joinStdioSessions needs at least one session');
  const frames: Frame[] = [];
  let offset = 0;
  sessions.forEach((session, index) => {
    const isLast = index === sessions.length - 1;
    let end = offset;
    for (const frame of session.frames) {
      if (frame.channel === 'end' && !isLast) continue;
      const t = frame.t + offset;
      end = Math.max(end, t);
      frames.push({ ...frame, t, exchange: 0 });
    }
    offset = end + 1;
  });
  return { header: last.header, frames: assignStdioExchanges(frames) };
}
