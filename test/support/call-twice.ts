import type { Transcript } from '../../src/transcript/frame.js';
import { frameMessage } from '../../src/transcript/frame-content.js';

/**
 * The golden's session with its `tools/call` made twice, one after the other, with the same progress
 * token (legal once the first call has ended) and the next request id.
 */
export function callTwiceWithOneToken(t: Transcript): Transcript {
  const callFrame = t.frames.find((f) => frameMessage(f)?.method === 'tools/call');
  if (!callFrame) throw new Error('no tools/call in the golden');
  const exchange = callFrame.exchange;
  const last = t.frames.findLastIndex((f) => f.exchange === exchange);
  const call = t.frames.filter((f) => f.exchange === exchange);
  const shift = (call.at(-1)?.t ?? 0) - (call[0]?.t ?? 0) + 1000;
  const id = frameMessage(callFrame)?.id as number;
  const again = call.map((f) => ({
    ...f,
    exchange: exchange + 1,
    t: f.t + shift,
    ...(f.raw !== undefined && {
      raw: f.raw.replaceAll(`"id":${id}`, `"id":${id + 1}`).replace(/(^|\n)id: (\S+)/, '$1id: again-$2'),
    }),
  }));
  const rest = t.frames
    .slice(last + 1)
    .map((f) => ({ ...f, exchange: f.exchange + (f.exchange > exchange ? 1 : 0), t: f.t + shift }));
  return { header: t.header, frames: [...t.frames.slice(0, last + 1), ...again, ...rest] };
}
