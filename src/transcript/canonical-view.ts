import { canonicalJson } from './canonical-json.js';
import type { Frame } from './frame.js';
import { frameMessage, sseBlock } from './frame-content.js';
import type { CompiledVolatile } from './volatile.js';

/** How frames are compared: parsed JSON-RPC (semantic, the default) or normalised raw bytes. */
export type CompareMode = 'semantic' | 'bytes';

/** One frame as a line of canonical text, with where it came from. */
export interface CanonicalFrame {
  /** `exchange:direction`, the stream this frame belongs to. */
  readonly stream: string;
  readonly text: string;
  /** The normalised frame. */
  readonly frame: Frame;
}

/** One stream (an exchange in one direction) as canonical lines, in order. */
export interface CanonicalStream {
  readonly stream: string;
  readonly frames: readonly CanonicalFrame[];
}

const arrow = (frame: Frame): string => (frame.dir === 'client->server' ? '->' : '<-');

/** A server message with its volatile values ignored or masked (client messages are compared as sent). */
function messageOf(frame: Frame, volatile: CompiledVolatile | undefined): unknown {
  const message = frameMessage(frame);
  return message && volatile && frame.dir === 'server->client' ? volatile.apply(message) : message;
}

function rawOf(frame: Frame, volatile: CompiledVolatile | undefined): string {
  const raw = frame.raw ?? frame.rawBase64 ?? '';
  return volatile && frame.dir === 'server->client' && frame.raw !== undefined ? volatile.maskText(raw) : raw;
}

function sseText(frame: Frame, mode: CompareMode, volatile: CompiledVolatile | undefined): string {
  const block = sseBlock(frame);
  if (mode === 'bytes' || !block) return `sse ${JSON.stringify(rawOf(frame, volatile))}`;
  const fields = [
    block.event !== undefined ? `event=${block.event}` : '',
    block.id !== undefined ? `id=${block.id}` : '',
    block.retry !== undefined ? `retry=${block.retry}` : '',
  ].filter(Boolean);
  const message = messageOf(frame, volatile);
  if (message) return `sse ${fields.join(' ')} ${canonicalJson(message)}`.replace('  ', ' ');
  if (block.data === '' || block.data === undefined) {
    const comments = block.comments.map((c) => `:${c.trim()}`).join(' ');
    return `sse ${block.data === '' ? 'priming ' : ''}${fields.join(' ')}${comments ? ` ${comments}` : ''}`.trimEnd();
  }
  return `sse ${fields.join(' ')} data=${JSON.stringify(block.data)}`;
}

/**
 * The canonical text of one normalised frame, or `undefined` for frames that are not compared
 * (reads). With `volatile`, server messages have their ignored values left out and masks applied.
 */
export function canonicalFrameText(
  frame: Frame,
  mode: CompareMode = 'semantic',
  volatile?: CompiledVolatile,
): string | undefined {
  switch (frame.channel) {
    case 'read':
      return undefined;
    case 'http':
      return frame.method !== undefined
        ? `${arrow(frame)} ${frame.method} ${frame.url ?? ''} ${canonicalJson(frame.headers ?? {})}`
        : `${arrow(frame)} HTTP ${frame.status} ${canonicalJson(frame.headers ?? {})}`;
    case 'end':
      return `${arrow(frame)} end ${frame.reason}`;
    case 'close':
      return `${arrow(frame)} close`;
    case 'sse':
      return `${arrow(frame)} ${sseText(frame, mode, volatile)}`;
    default: {
      const message = mode === 'semantic' ? messageOf(frame, volatile) : undefined;
      const body = message ? canonicalJson(message) : JSON.stringify(rawOf(frame, volatile));
      return `${arrow(frame)} ${frame.channel} ${body}`;
    }
  }
}

/** The whole canonical text: a heading per stream, then one line per frame. */
export function canonicalText(streams: readonly CanonicalStream[]): string {
  return streams
    .map((s) => [`# exchange ${s.stream.replace(':', ' ')}`, ...s.frames.map((f) => f.text)].join('\n'))
    .join('\n');
}
