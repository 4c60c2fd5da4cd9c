import type { Readable, Writable } from 'node:stream';
import { type StdioEraSide, type StdioOut, type StdioPeer, serveStdioSide } from '../http/stdio-side.js';
import type { Era } from '../transcript/frame.js';
import { crossGoldens } from './cross-era.js';
import { splitGoldensByEra } from './golden-peer.js';
import { DEFAULT_MAX_BODY_BYTES } from './http-guards.js';
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
  let initializeLine: string | undefined;
  let running = 0;
  let ended = false;
  let played: () => void = () => undefined;
  const allPlayed = new Promise<void>((resolve) => {
    played = resolve;
  });
  const closeEngines = (): void => {
    sides.legacy.engine.close();
    sides.modern.engine.close();
  };
  const maybeEnd = (): void => {
    if (!ended || running > 0) return;
    closeEngines();
    played();
  };
  const peer = (write: StdioOut): StdioPeer => {
    const push = (event: ReplayEvent): void => {
      const text = frameEvent(event, 'stdio');
      if (text !== undefined) void write(text);
    };
    sides.legacy.session.push = push;
    sides.modern.session.push = push;
    const side = (era: Era): StdioEraSide => ({
      receive(value, _read, line) {
        const { engine, session } = sides[era];
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
        running++;
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
            running--;
            maybeEnd();
          },
        );
      },
    });
    return {
      legacy: side('legacy'),
      modern: side('modern'),
      version: () => sides.legacy.session.version,
      end() {
        ended = true;
        // A cancelled call never finishes: it no longer holds the replay open.
        const calls = [...sides.legacy.session.calls, ...sides.modern.session.calls];
        running = calls.filter((c) => !c.finished && !c.cancelled).length;
        maybeEnd();
        return allPlayed.then(() => options.fallback?.end());
      },
      close() {
        ended = true;
        closeEngines();
      },
    };
  };
  const side = serveStdioSide(
    {
      stdin: options.stdin ?? process.stdin,
      stdout: options.stdout ?? process.stdout,
      unreadable: 'answer',
      maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_BODY_BYTES,
      writes: 'spaced',
    },
    peer,
  );
  return { report: () => joinedReport(sides), closed: side.closed, close: side.close };
}
