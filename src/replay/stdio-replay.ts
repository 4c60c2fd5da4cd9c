import type { Readable, Writable } from 'node:stream';
import type { Transcript } from '../transcript/frame.js';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { jsonRpcError } from './json-rpc-error.js';
import { explainUnmatched, findMatch } from './matching.js';
import { paceInOrder } from './pacing.js';
import { type ReplayOptions, type ReplayReport, type ReplayReportEntry, reportUnmatched } from './replay-options.js';
import { buildReplayPlan } from './replay-plan.js';
import { dataOf, stampFrame } from './stamp.js';

/** Options of {@link serveReplayStdio}. */
export interface StdioReplayOptions extends Omit<ReplayOptions, 'chunking'> {
  /** @default process.stdin */
  readonly stdin?: Readable;
  /** @default process.stdout */
  readonly stdout?: Writable;
}

/** A replay running on a pair of streams. */
export interface StdioReplay {
  report(): ReplayReport;
  /** Resolves when stdin ends and every scheduled line was written. */
  readonly closed: Promise<void>;
  close(): void;
}

/**
 * Serves goldens over stdio, as an upstream a gateway spawns: one JSON-RPC message per line,
 * recorded messages at their recorded offsets with the live id and token stamped in. Goldens
 * recorded over HTTP serve too: their SSE `data` and JSON bodies become lines.
 *
 * @example
 * await serveReplayStdio([await readGolden('goldens/progress-stdio.jsonl')]).closed
 */
export function serveReplayStdio(goldens: readonly Transcript[], options: StdioReplayOptions = {}): StdioReplay {
  const plan = buildReplayPlan(goldens);
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const received: ReplayReportEntry[] = [];
  /** Stoppers of the paced replies still running, by request id. */
  const running = new Map<string, () => void>();
  const pace = options.pace ?? 'recorded';
  const delayMs = (offsetUs: number): number =>
    pace === 'instant' ? 0 : (offsetUs / 1000) * (pace === 'recorded' ? 1 : pace.scale);
  let buffered = '';
  let ended = false;
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const idKey = (id: unknown): string => JSON.stringify(id);
  const maybeClose = (): void => {
    if (ended && running.size === 0) resolveClosed();
  };
  const writeLine = (text: string): void => {
    stdout.write(`${text}\n`);
  };

  const cancel = (id: unknown): void => {
    running.get(idKey(id))?.();
    running.delete(idKey(id));
    maybeClose();
  };

  const handle = (message: JsonRpcMessage): void => {
    const isRequest = typeof message.method === 'string' && 'id' in message;
    if (!isRequest) {
      received.push({
        session: null,
        httpMethod: 'STDIO',
        ...(typeof message.method === 'string' && { method: message.method }),
        matched: null,
      });
      if (message.method === 'notifications/cancelled')
        cancel((message.params as { requestId?: unknown } | undefined)?.requestId);
      return;
    }
    const match = findMatch(plan.exchanges, 'POST', message);
    if (!match) {
      const error = explainUnmatched(plan.exchanges, message);
      received.push({
        session: null,
        httpMethod: 'STDIO',
        method: String(message.method),
        id: message.id,
        matched: null,
        error: error.message,
      });
      reportUnmatched(options.onUnmatchedRequest, { httpMethod: 'STDIO', message, error: error.message });
      writeLine(jsonRpcError(message.id, error.code, error.message, error.data));
      return;
    }
    received.push({
      session: null,
      httpMethod: 'STDIO',
      method: String(message.method),
      id: message.id,
      matched: `${match.source} #${match.exchange}`,
    });
    const meta = (message.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta;
    const hasToken = meta !== undefined && 'progressToken' in meta;
    const stamp = {
      idJson: JSON.stringify(message.id),
      ...(hasToken && { tokenJson: JSON.stringify(meta.progressToken) }),
    };
    const lines = match.events.flatMap((event) => {
      if (!hasToken && event.message?.method === 'notifications/progress') return [];
      const data = dataOf(event.raw, event.kind);
      return data === undefined
        ? []
        : [{ offsetUs: event.offsetUs, text: stampFrame(data, event.kind === 'sse' ? 'json' : event.kind, stamp) }];
    });
    const key = idKey(message.id);
    running.set(
      key,
      paceInOrder(
        lines.length,
        (i) => delayMs((lines[i] as { offsetUs: number }).offsetUs),
        (i) => writeLine((lines[i] as { text: string }).text),
        () => {
          running.delete(key);
          maybeClose();
        },
      ),
    );
  };

  stdin.setEncoding('utf8');
  stdin.on('data', (text: string) => {
    buffered += text;
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline).replace(/\r$/, '');
      buffered = buffered.slice(newline + 1);
      if (line.trim() !== '') {
        try {
          handle(JSON.parse(line) as JsonRpcMessage);
        } catch {
          writeLine(jsonRpcError(null, -32700, `Parse error: not a JSON line: ${line.slice(0, 100)}`));
        }
      }
      newline = buffered.indexOf('\n');
    }
  });
  stdin.on('end', () => {
    ended = true;
    maybeClose();
  });

  return {
    report: () => ({ requests: [...received], unmatched: received.filter((r) => r.error !== undefined) }),
    closed,
    close() {
      for (const stop of running.values()) stop();
      running.clear();
      ended = true;
      resolveClosed();
    },
  };
}
