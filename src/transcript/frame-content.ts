import type { Frame } from './frame.js';
import { type JsonRpcMessage, parseJsonRpc } from './json-rpc.js';
import { firstSseBlock, type SseBlock, splitSse } from './sse.js';

export type { JsonRpcMessage } from './json-rpc.js';
export { describeMessage } from './json-rpc.js';

const encoder = new TextEncoder();
const messages = new WeakMap<Frame, JsonRpcMessage | null>();
const blocks = new WeakMap<Frame, SseBlock | null>();

/** The frame's bytes (from `raw` or `rawBase64`); empty for frames without a body. */
export function frameBytes(frame: Frame): Uint8Array {
  if (frame.raw !== undefined) return encoder.encode(frame.raw);
  if (frame.rawBase64 !== undefined) return new Uint8Array(Buffer.from(frame.rawBase64, 'base64'));
  return new Uint8Array(0);
}

/** The SSE fields of an `sse` frame; `undefined` for other channels. */
export function sseBlock(frame: Frame): SseBlock | undefined {
  if (frame.channel !== 'sse') return undefined;
  let block = blocks.get(frame);
  if (block === undefined) {
    block = (frame.raw !== undefined ? firstSseBlock(frame.raw) : splitSse(frameBytes(frame))[0]) ?? null;
    blocks.set(frame, block);
  }
  return block ?? undefined;
}

/**
 * The JSON-RPC message a frame carries: the JSON body, the SSE `data`, or the stdio line.
 * `undefined` for frames that carry none (headers, reads, priming events, comments, bad JSON).
 */
export function frameMessage(frame: Frame): JsonRpcMessage | undefined {
  let message = messages.get(frame);
  if (message === undefined) {
    if (frame.channel === 'sse') {
      const data = sseBlock(frame)?.data;
      message = data === undefined ? null : (parseJsonRpc(data) ?? null);
    } else if (frame.channel === 'json' || frame.channel === 'stdio') {
      message = frame.raw === undefined ? null : (parseJsonRpc(frame.raw) ?? null);
    } else {
      message = null;
    }
    messages.set(frame, message);
  }
  return message ?? undefined;
}
