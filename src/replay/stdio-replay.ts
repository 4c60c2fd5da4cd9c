import type { Readable, Writable } from 'node:stream';
import { isJsonRpcMessage } from '../transcript/json-rpc.js';
import { DEFAULT_MAX_BODY_BYTES } from './http-guards.js';
import { jsonRpcError } from './json-rpc-error.js';
import type { LiveEvent } from './live-event.js';
import { frameEvent } from './reframe.js';
import type { ReplayOptions } from './replay-engine.js';
import { ReplayEngine } from './replay-engine.js';
import type { GoldenInput, ReplayEvent } from './replay-plan.js';
import type { ReplayReport } from './replay-report.js';
import type { StdioFallback } from './unmatched-fallback.js';

/** Options of {@link serveReplayStdio}. */
export interface StdioReplayOptions extends Omit<ReplayOptions, 'chunking'> {
  /** @default process.stdin */
  readonly stdin?: Readable;
  /** @default process.stdout */
  readonly stdout?: Writable;
  /** Longest line read, in bytes; a longer one is dropped with a `-32600` error. @default 4 MiB */
  readonly maxLineBytes?: number;
  /** Answers the requests no golden matches (the CLI's `--unmatched passthrough`). @default none: they are refused */
  readonly fallback?: StdioFallback;
}

/** A replay running on a pair of streams. */
export interface StdioReplay {
  report(): ReplayReport;
  /** Resolves when stdin ends and every scheduled line was written. */
  readonly closed: Promise<void>;
  close(): void;
}

/**
 * Serves goldens over stdio, as an upstream a gateway spawns: the stdio adapter of the
 * {@link ReplayEngine}. One JSON-RPC message per line; lines recorded over stdio go out byte-exact,
 * messages recorded over HTTP (SSE `data`, JSON bodies) become lines. Server-initiated messages
 * go out at their recorded times after `initialize`.
 *
 * @example
 * await serveReplayStdio([await readGolden('goldens/progress-stdio.jsonl')]).closed
 */
export function serveReplayStdio(goldens: readonly GoldenInput[], options: StdioReplayOptions = {}): StdioReplay {
  const engine = new ReplayEngine(goldens, options);
  const session = engine.openSession('stdio');
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const limit = options.maxLineBytes ?? DEFAULT_MAX_BODY_BYTES;
  let running = 0;
  let buffered = '';
  let dropping = false;
  let ended = false;
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  let initializeLine: string | undefined;
  const maybeClose = (): void => {
    if (!ended || running > 0) return;
    engine.close();
    void Promise.resolve(options.fallback?.end())
      .then(() => write.drained())
      .then(resolveClosed);
  };
  const write = lineWriter(stdout);
  // A client that closed its end of the pipe (EPIPE) is gone: nothing more can reach it, so the
  // replay ends instead of crashing on the unhandled stream error.
  stdout.on('error', () => {
    engine.close();
    ended = true;
    resolveClosed();
  });
  const push = (event: ReplayEvent): void => {
    const text = frameEvent(event, 'stdio');
    if (text !== undefined) write(text);
  };
  session.push = push;

  const handleLine = (line: string): void => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      write(jsonRpcError(null, -32700, 'Parse error: a line is not valid JSON. Send one JSON-RPC message per line.'));
      return;
    }
    if (!isJsonRpcMessage(value)) {
      write(
        jsonRpcError(
          null,
          -32600,
          Array.isArray(value)
            ? `Invalid Request: JSON-RPC batches are not supported in protocol version ${session.version ?? '(none negotiated)'}. Send one message per line.`
            : 'Invalid Request: expected a JSON-RPC 2.0 message object (with "jsonrpc":"2.0" and a method, result or error).',
        ),
      );
      return;
    }
    if (options.fallback?.claims?.(value)) {
      // A cancel for a passed-through call, or the client's answer to the live server: the live server's.
      engine.note(session, 'POST', value, undefined, undefined, 'passed through to the live server');
      options.fallback.forward(line, initializeLine, write);
      return;
    }
    const answer = engine.receive(session, value, 'POST', line);
    if (answer.kind === 'accepted') return;
    if (value.method === 'initialize') initializeLine = line;
    if (answer.kind === 'unmatched') {
      if (options.fallback && value.method !== 'initialize') options.fallback.forward(line, initializeLine, write);
      else write(answer.text);
      return;
    }
    const { call } = answer;
    running++;
    engine.play(
      call,
      call.events.map((e) => e.offsetUs),
      (i) => {
        const event = call.events[i] as LiveEvent;
        const text = frameEvent(event, 'stdio');
        if (text !== undefined) write(text, event.message !== undefined && !('method' in event.message));
      },
      () => {
        call.finished = true;
        running--;
        maybeClose();
      },
    );
  };

  stdin.setEncoding('utf8');
  stdin.on('data', (text: string) => {
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
      if (!dropping)
        write(jsonRpcError(null, -32600, `Invalid Request: a line is longer than ${limit} bytes; it is dropped.`));
      dropping = true;
    }
  });
  stdin.on('end', () => {
    ended = true;
    // A cancelled call never finishes: it no longer holds the replay open.
    running = session.calls.filter((c) => !c.finished && !c.cancelled).length;
    maybeClose();
  });

  return {
    report: () => engine.report(),
    closed,
    close() {
      engine.close();
      ended = true;
      resolveClosed();
    },
  };
}

/** Writes lines to a stream, each its own write; see {@link lineWriter}. */
interface LineWriter {
  /** Queues one line; `answer` marks a response, which is kept apart from notifications before it. */
  (text: string, answer?: boolean): void;
  /** Resolves once every line given so far was handed to the stream. */
  drained(): Promise<void>;
}

/**
 * Time between a notification and an answer written after it: enough for the client to read the
 * notification on its own, as it would from a live server that sends the answer after its work.
 */
const ANSWER_GAP_MS = 10;

/**
 * Writes each message as its own line write, the next one only after the previous was handed to
 * the stream, and an answer a moment after the notifications before it. Messages due together (a
 * final progress and the result recorded in one read, or a replay at instant pace) would
 * otherwise reach the client in one read, and the SDK client, which handles the result before the
 * notifications read with it, then loses the progress: a live stdio server writes one message per
 * `send`, and its progress comes before the work that precedes the result.
 */
function lineWriter(stdout: Writable): LineWriter {
  const queue: { readonly line: string; readonly answer: boolean }[] = [];
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
      stdout.write(item.line, () => setImmediate(next));
    };
    if (item.answer && afterNotification) setTimeout(send, ANSWER_GAP_MS);
    else send();
  };
  const write = (text: string, answer = false): void => {
    queue.push({ line: text.endsWith('\n') ? text : `${text}\n`, answer });
    if (!busy) next();
  };
  return Object.assign(write, {
    drained: () => (busy ? new Promise<void>((resolve) => idle.push(resolve)) : Promise.resolve()),
  });
}
