import type { Readable, Writable } from 'node:stream';
import { readStdioMessage, type StdioPhase } from '../http/read-request.js';
import type { Era } from '../transcript/frame.js';
import { isJsonRpcMessage } from '../transcript/json-rpc.js';
import { crossGoldens } from './cross-era.js';
import { splitGoldensByEra } from './golden-peer.js';
import { DEFAULT_MAX_BODY_BYTES } from './http-guards.js';
import { jsonRpcError } from './json-rpc-error.js';
import type { LiveEvent } from './live-event.js';
import { frameEvent } from './reframe.js';
import type { ReplayOptions, ReplaySession } from './replay-engine.js';
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

/** One era's side of a stdio replay: its engine (its own goldens, then the other era's re-framed) and its session. */
interface EraSide {
  readonly engine: ReplayEngine;
  readonly session: ReplaySession;
}

/** The two sides of a stdio replay: each era's goldens first, the other era's crossed after them ({@link crossGoldens}). */
function eraSides(goldens: readonly GoldenInput[], options: ReplayOptions): Record<Era, EraSide> {
  const { legacy, modern } = splitGoldensByEra(goldens);
  const side = (served: GoldenInput[]): EraSide => {
    const engine = new ReplayEngine(served, options);
    return { engine, session: engine.openSession('stdio') };
  };
  // The handshake is made up only where no golden of that era answers it: one replay is one server.
  return {
    legacy: side([...legacy, ...crossGoldens(modern, 'legacy', legacy.length === 0)]),
    modern: side([...modern, ...crossGoldens(legacy, 'modern', modern.length === 0)]),
  };
}

/** Both sides' reports as one: the 2025 side's requests, then the 2026-07-28 side's. */
function joinedReport(sides: Record<Era, EraSide>): ReplayReport {
  const [a, b] = [sides.legacy.engine.report(), sides.modern.engine.report()];
  return { requests: [...a.requests, ...b.requests], unmatched: [...a.unmatched, ...b.unmatched] };
}

/**
 * Serves goldens over stdio, as an upstream a gateway spawns: the stdio adapter of the
 * {@link ReplayEngine}. One JSON-RPC message per line; lines recorded over stdio go out byte-exact,
 * messages recorded over HTTP (SSE `data`, JSON bodies) become lines. Server-initiated messages
 * go out at their recorded times after `initialize`. The connection's era is read as a 2026-07-28
 * server over stdio reads it (the opening message picks it, with its refusals): a 2025 client is
 * answered from the 2025 goldens, a client sending the per-request envelope (no `initialize`) from
 * the 2026-07-28 ones, and each, where no golden of its era records a request, from a golden of the
 * other era re-framed, as the HTTP replay does.
 *
 * @example
 * await serveReplayStdio([await readGolden('goldens/progress-stdio.jsonl')]).closed
 */
export function serveReplayStdio(goldens: readonly GoldenInput[], options: StdioReplayOptions = {}): StdioReplay {
  const sides = eraSides(goldens, options);
  let phase: StdioPhase = 'opening';
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
  const closeEngines = (): void => {
    sides.legacy.engine.close();
    sides.modern.engine.close();
  };
  const maybeClose = (): void => {
    if (!ended || running > 0) return;
    closeEngines();
    void Promise.resolve(options.fallback?.end())
      .then(() => write.drained())
      .then(resolveClosed);
  };
  const write = lineWriter(stdout);
  // A client that closed its end of the pipe (EPIPE) is gone: nothing more can reach it, so the
  // replay ends instead of crashing on the unhandled stream error.
  stdout.on('error', () => {
    closeEngines();
    ended = true;
    resolveClosed();
  });
  const push = (event: ReplayEvent): void => {
    const text = frameEvent(event, 'stdio');
    if (text !== undefined) write(text);
  };
  sides.legacy.session.push = push;
  sides.modern.session.push = push;

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
            ? `Invalid Request: JSON-RPC batches are not supported in protocol version ${sides.legacy.session.version ?? '(none negotiated)'}. Send one message per line.`
            : 'Invalid Request: expected a JSON-RPC 2.0 message object (with "jsonrpc":"2.0" and a method, result or error).',
        ),
      );
      return;
    }
    const read = readStdioMessage(value, {}, phase);
    phase = read.phase;
    if (read.refusal) {
      // A refused notification is dropped, as a 2026-07-28 server over stdio drops it.
      if (read.kind === 'request')
        write(jsonRpcError(read.id, read.refusal.code, read.refusal.message, read.refusal.data));
      return;
    }
    const { engine, session } = sides[read.era];
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
    const calls = [...sides.legacy.session.calls, ...sides.modern.session.calls];
    running = calls.filter((c) => !c.finished && !c.cancelled).length;
    maybeClose();
  });

  return {
    report: () => joinedReport(sides),
    closed,
    close() {
      closeEngines();
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
