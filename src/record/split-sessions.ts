import type { Frame, Transcript } from '../transcript/frame.js';

/**
 * One transcript per client session of a proxy's recording: exchanges go with the `mcp-session-id`
 * their request carried or their response handed out (an `initialize` gets its id in the answer);
 * exchanges of no session (a stateless server) form one transcript. Frames keep their numbers and
 * times, so each replays as recorded.
 */
export function splitSessions(transcript: Transcript): Transcript[] {
  return [...splitSessionsById(transcript).values()];
}

/**
 * {@link splitSessions} keyed by `mcp-session-id` (`''` for the exchanges of no session), in the
 * order the sessions began.
 */
export function splitSessionsById(transcript: Transcript): Map<string, Transcript> {
  const sessionOf = new Map<number, string>();
  for (const frame of transcript.frames) {
    const id = frame.channel === 'http' ? frame.headers?.['mcp-session-id'] : undefined;
    if (id !== undefined && !sessionOf.has(frame.exchange)) sessionOf.set(frame.exchange, id);
  }
  const groups = new Map<string, Frame[]>();
  for (const frame of transcript.frames) {
    const key = sessionOf.get(frame.exchange) ?? '';
    const list = groups.get(key);
    if (list) list.push(frame);
    else groups.set(key, [frame]);
  }
  // A client that never started a session (a probe, a 404) recorded nothing worth a golden.
  const hasRequest = (frames: readonly Frame[]): boolean =>
    frames.some(
      (f) => f.dir === 'client->server' && (f.channel === 'json' || f.channel === 'sse' || f.channel === 'stdio'),
    );
  const out = new Map<string, Transcript>();
  for (const [key, frames] of groups) if (hasRequest(frames)) out.set(key, { header: transcript.header, frames });
  return out;
}
