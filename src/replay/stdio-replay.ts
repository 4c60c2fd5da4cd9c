import type { Readable, Writable } from 'node:stream';
import { DEFAULT_MAX_BODY_BYTES } from '../http/front-door.js';
import { type StdioEraSide, type StdioOut, type StdioPeer, serveStdioSide } from '../http/stdio-side.js';
import type { Era } from '../transcript/frame.js';
import { crossGoldens } from './cross-era.js';
import { splitGoldensByEra } from './golden-peer.js';
import type { LiveEvent } from './live-event.js';
import { frameEvent } from './reframe.js';
import { type ReplayCall, ReplayEngine, type ReplayOptions } from './replay-engine.js';
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
 * Serves goldens over stdio, as an upstream a gateway spawns: the goldens' peer of the stdio
 * answering side (`serveStdioSide`, which reads the lines and the connection's era as a 2026-07-28
 * server over stdio reads it). One JSON-RPC message per line; lines recorded over stdio go out
 * byte-exact, messages recorded over HTTP (SSE `data`, JSON bodies) become lines. Server-initiated
 * messages go out at their recorded times after `initialize`. Each era has its {@link ReplayEngine}
 * and session: a 2025 client is answered from the 2025 goldens, a client sending the per-request
 * envelope (no `initialize`) from the 2026-07-28 ones, and each, where no golden of its era records
 * a request, from a golden of the other era re-framed ({@link crossGoldens}), as the HTTP replay does.
 *
 * @example
 * await serveReplayStdio([await readGolden('goldens/progress-stdio.jsonl')]).closed
 */
export function serveReplayStdio(goldens: readonly GoldenInput[], options: StdioReplayOptions = {}): StdioReplay {
  const { legacy, modern } = splitGoldensByEra(goldens);
  // The handshake is made up only where no golden of that era answers it: one replay is one server.
  const engines: Record<Era, ReplayEngine> = {
    legacy: new ReplayEngine([...legacy, ...crossGoldens(modern, 'legacy', legacy.length === 0)], options),
    modern: new ReplayEngine([...modern, ...crossGoldens(legacy, 'modern', modern.length === 0)], options),
  };
  const sessions = { legacy: engines.legacy.openSession('stdio'), modern: engines.modern.openSession('stdio') };
  const playing = new Set<ReplayCall>();
  let initializeLine: string | undefined;
  let ended: (() => void) | undefined;
  const closeEngines = (): void => {
    engines.legacy.close();
    engines.modern.close();
  };
  const settle = (): void => {
    if (!ended || playing.size > 0) return;
    closeEngines();
    ended();
  };
  const peer = (write: StdioOut): StdioPeer => {
    const push = (event: ReplayEvent): void => {
      const text = frameEvent(event, 'stdio');
      if (text !== undefined) void write(text);
    };
    sessions.legacy.push = push;
    sessions.modern.push = push;
    const side =
      (era: Era): StdioEraSide =>
      (value, _read, line) => {
        const [engine, session] = [engines[era], sessions[era]];
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
          else void write(answer.text);
          return;
        }
        const { call } = answer;
        playing.add(call);
        engine.play(
          call,
          call.events.map((e) => e.offsetUs),
          (i) => {
            const event = call.events[i] as LiveEvent;
            const text = frameEvent(event, 'stdio');
            if (text !== undefined) void write(text, event.message !== undefined && !('method' in event.message));
          },
          () => {
            call.finished = true;
            playing.delete(call);
            settle();
          },
        );
      };
    return {
      legacy: side('legacy'),
      modern: side('modern'),
      version: () => sessions.legacy.version,
      end: () =>
        new Promise<void>((resolve) => {
          ended = resolve;
          // A cancelled call never finishes: it no longer holds the replay open.
          for (const call of playing) if (call.cancelled) playing.delete(call);
          settle();
        }).then(() => options.fallback?.end()),
      close: closeEngines,
    };
  };
  const { closed, close } = serveStdioSide(
    {
      stdin: options.stdin ?? process.stdin,
      stdout: options.stdout ?? process.stdout,
      unreadable: 'answer',
      maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_BODY_BYTES,
      writes: 'spaced',
    },
    peer,
  );
  // Both eras' reports as one: the 2025 side's requests, then the 2026-07-28 side's.
  const report = (): ReplayReport => {
    const [a, b] = [engines.legacy.report(), engines.modern.report()];
    return { requests: [...a.requests, ...b.requests], unmatched: [...a.unmatched, ...b.unmatched] };
  };
  return { report, closed, close };
}
