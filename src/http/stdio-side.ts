import type { Readable, Writable } from 'node:stream';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { isJsonRpcMessage } from '../transcript/json-rpc.js';
import { answeringEra } from './answering-era.js';
import { jsonRpcErrorOf, type ReadOptions, readStdioMessage, type StdioPhase, type StdioRead } from './read-request.js';

/** Writes a message (text as it is) as one line; resolves once the stream took it. `answer` marks a response. */
export type StdioOut = (message: string | Record<string, unknown>, answer?: boolean) => Promise<void>;

/** One era's side of a stdio connection: gets each message the reader let through in its era. */
export type StdioEraSide = (message: JsonRpcMessage, read: StdioRead, line: string) => void;

/** A peer of the stdio router: where each era's answers come from (`serve`: the reference tools; `replay`: the goldens). */
export interface StdioPeer {
  readonly legacy: StdioEraSide;
  readonly modern: StdioEraSide;
  /** stdin ended: what it returns (a promise) settles once nothing more is to be written. */
  end(): unknown;
  /** Stops at once: `close()`, or the client gone. */
  close(): void;
  /** The protocol version a batch's refusal names. */
  version?(): string | undefined;
}

/** How the router reads and writes a connection. */
export interface StdioSideOptions {
  readonly stdin: Readable;
  readonly stdout: Writable;
  /** `legacy: 'reject'`: 2026-07-28 only; `modern: 'reject'`: 2025 only. @default both */
  readonly eras?: Pick<ReadOptions, 'legacy' | 'modern'>;
  /**
   * A line that is no JSON-RPC message, or too long: `answer` names what is wrong (`-32700`,
   * `-32600`); `ignore` drops it, as the SDK's stdio servers do. @default 'ignore'
   */
  readonly unreadable?: 'answer' | 'ignore';
  /** Longest line kept; a longer one is dropped. @default no limit */
  readonly maxLineBytes?: number;
  /** `spaced`: a write a line, an answer apart from the notifications before it (see `lineWriter`). @default 'as-sent' */
  readonly writes?: 'spaced' | 'as-sent';
}

/**
 * The stdio answering side, one router over two peers (`serve --stdio`, `replay --stdio`): reads
 * JSON-RPC lines from `stdin`, each message's era as a 2026-07-28 server over stdio reads it (the
 * opening message picks it: `readStdioMessage`), answers a refused request with its error, drops a
 * refused notification, and hands the rest to the peer's side of that era, which writes through
 * the one writer. `closed` resolves when stdin ended and the peer wrote all it had, or on `close()`.
 */
export function serveStdioSide(
  options: StdioSideOptions,
  peerOf: (out: StdioOut) => StdioPeer,
): { readonly closed: Promise<void>; close(): void } {
  const { stdin, stdout } = options;
  const limit = options.maxLineBytes ?? Number.POSITIVE_INFINITY;
  const answers = options.unreadable === 'answer';
  const write = lineWriter(stdout, options.writes === 'spaced');
  const peer = peerOf(write);
  let phase: StdioPhase = 'opening';
  let buffered = '';
  let dropping = false;
  let done = false;
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const unreadable = (code: number, message: string): void => {
    if (answers) void write({ jsonrpc: '2.0', id: null, error: { code, message } });
  };

  const handleLine = (line: string): void => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      unreadable(-32700, 'Parse error: a line is not valid JSON. Send one JSON-RPC message per line.');
      return;
    }
    if (!isJsonRpcMessage(value)) {
      const batch = `Invalid Request: JSON-RPC batches are not supported in protocol version ${peer.version?.() ?? '(none negotiated)'}. Send one message per line.`;
      const other =
        'Invalid Request: expected a JSON-RPC 2.0 message object (with "jsonrpc":"2.0" and a method, result or error).';
      unreadable(-32600, Array.isArray(value) ? batch : other);
      return;
    }
    const read = readStdioMessage(value, options.eras ?? {}, phase);
    phase = read.phase;
    if (read.refusal) {
      // A refused notification is dropped, as a 2026-07-28 server over stdio drops it.
      if (read.kind === 'request') void write(jsonRpcErrorOf(read.id, read.refusal));
      return;
    }
    peer[read.era](value, read, line);
  };

  const onData = (text: string): void => {
    buffered += text;
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline).replace(/\r$/, '');
      buffered = buffered.slice(newline + 1);
      if (dropping) dropping = false;
      else if (line.trim() !== '') handleLine(line);
      newline = buffered.indexOf('\n');
    }
    if (buffered.length > limit) {
      // A line without end is not kept whole: memory stays bounded.
      buffered = '';
      if (!dropping) unreadable(-32600, `Invalid Request: a line is longer than ${limit} bytes; it is dropped.`);
      dropping = true;
    }
  };
  const stopReading = (): void => {
    stdin.off('data', onData);
    stdin.off('end', onEnd);
    if (stdin.listenerCount('data') === 0) stdin.pause();
  };
  const close = (): void => {
    if (done) return;
    done = true;
    stopReading();
    peer.close();
    resolveClosed();
  };
  const onEnd = (): void => {
    if (done) return;
    stopReading();
    void Promise.resolve(peer.end())
      .then(() => write.drained())
      .then(() => {
        done = true;
        resolveClosed();
      });
  };
  stdin.setEncoding('utf8');
  stdin.on('data', onData);
  stdin.on('end', onEnd);
  // The client gone (EPIPE, a failed read): nothing more can reach it, so the connection ends
  // instead of crashing on the unhandled stream error.
  stdin.on('error', close);
  stdout.on('error', close);
  return { closed, close };
}

/** A peer answering each 2026-07-28 request on its own (`serve`): a result or error, progress written on the way. */
export interface StdioRequestPeer {
  hasMethod(method: string): boolean;
  answer(message: JsonRpcMessage, cancelled: AbortSignal): Promise<Record<string, unknown>>;
  /** A cancel named request `requestId`, before its call is aborted. */
  cancelling?(requestId: string | number, reason: string | null): void;
}

/**
 * The 2026-07-28 side over stdio for a {@link StdioRequestPeer}: the era's cancel (here
 * `notifications/cancelled`) aborts the call it names, which is then not answered; other
 * notifications and posted responses ask for nothing; a method the peer lacks gets the era's
 * `-32601`. `close()` aborts every call still running (stdin ended: none is answered).
 */
export function perRequestStdio(peer: StdioRequestPeer, write: StdioOut): { receive: StdioEraSide; close(): void } {
  const era = answeringEra('modern');
  const byNotification = era.cancel('stdio') === 'notification';
  const aborts = new Map<string, AbortController>();
  const key = (id: unknown): string => `${typeof id}:${String(id)}`;
  return {
    receive(message, read) {
      const params = message.params as { requestId?: unknown; reason?: unknown } | undefined;
      if (byNotification && read.kind === 'notification' && read.method === 'notifications/cancelled') {
        const reason = typeof params?.reason === 'string' ? params.reason : null;
        peer.cancelling?.(params?.requestId as string | number, reason);
        aborts.get(key(params?.requestId))?.abort();
        return;
      }
      // Other notifications and posted responses ask for nothing: a 2026-07-28 server has no requests of its own.
      if (read.kind !== 'request') return;
      const id = read.id as string | number;
      if (!peer.hasMethod(read.method as string)) {
        void write(jsonRpcErrorOf(id, era.unknownMethod(read.method)), true);
        return;
      }
      const abort = new AbortController();
      aborts.set(key(id), abort);
      void peer
        .answer(message, abort.signal)
        .then((answered) => (abort.signal.aborted ? undefined : write(answered, true)))
        .catch(() => undefined)
        .finally(() => aborts.delete(key(id)));
    },
    close() {
      for (const abort of aborts.values()) abort.abort();
      aborts.clear();
    },
  };
}

/** Time between a notification and an answer after it (`spaced`): the client reads the notification on its own. */
const ANSWER_GAP_MS = 10;

/**
 * Writes each message as a line. `spaced`: each its own write, the next only after the previous
 * was handed to the stream, and an answer a moment after the notifications before it. Messages
 * due together (a final progress and the result recorded in one read, or a replay at instant
 * pace) would otherwise reach the client in one read, and the SDK client, which handles the
 * result before the notifications read with it, then loses the progress: a live stdio server
 * writes one message per `send`, and its progress comes before the work that precedes the result.
 * Not spaced: written at once, resolving when the stream took it (or on `drain`), as the SDK's
 * stdio transports write.
 */
function lineWriter(stdout: Writable, spaced: boolean): StdioOut & { drained(): Promise<void> } {
  const queue: { readonly line: string; readonly answer: boolean; readonly taken: () => void }[] = [];
  const idle: (() => void)[] = [];
  let busy = false;
  let afterNotification = false;
  const next = (): void => {
    const item = queue.shift();
    if (item === undefined) {
      busy = false;
      for (const resolve of idle.splice(0)) resolve();
      return;
    }
    busy = true;
    const send = (): void => {
      afterNotification = !item.answer;
      stdout.write(item.line, () => {
        item.taken();
        setImmediate(next);
      });
    };
    if (item.answer && afterNotification) setTimeout(send, ANSWER_GAP_MS);
    else send();
  };
  const write = (message: string | Record<string, unknown>, answer = false): Promise<void> => {
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    const line = text.endsWith('\n') ? text : `${text}\n`;
    return new Promise<void>((taken) => {
      if (!spaced) {
        if (stdout.writableEnded || stdout.destroyed || stdout.write(line)) taken();
        else stdout.once('drain', taken);
        return;
      }
      queue.push({ line, answer, taken });
      if (!busy) next();
    });
  };
  return Object.assign(write, {
    drained: () => (busy ? new Promise<void>((resolve) => idle.push(resolve)) : Promise.resolve()),
  });
}
