import { PassThrough } from 'node:stream';
import { type StdioReplay, type StdioReplayOptions, serveReplayStdio } from '../../src/replay/stdio-replay.js';
import { readGolden } from '../../src/store/golden-file.js';

/** A JSON-RPC message as a test reads it off the replay's stdout. */
export interface StdioLine {
  readonly id?: unknown;
  readonly method?: string;
  readonly params?: { readonly message?: string };
  readonly result?: unknown;
}

/** A client of a replay served over in-memory stdio: what it received, each line with its arrival time. */
export interface StdioReplayClient {
  readonly replay: StdioReplay;
  /** Every message the replay wrote, in order, with `Date.now()` when it arrived. */
  readonly lines: { readonly at: number; readonly message: StdioLine }[];
  send(message: unknown): void;
  /** Sends `initialize` (2025-11-25, with these capabilities) as request 0, waits for its answer, then sends `notifications/initialized`. */
  initialize(name: string, capabilities?: Record<string, unknown>): Promise<void>;
  /** Resolves once `done()` holds, looking every 25 ms, or after `limitMs` (the test's assertions then say what is missing). */
  until(done: () => boolean, limitMs?: number): Promise<void>;
  /** Ends the client's stdin and resolves once the replay has closed (and its fallback ended). */
  close(): Promise<void>;
}

/**
 * `serveReplayStdio` of one golden (`pace: 'instant'` unless `options` says otherwise) on in-memory
 * stdin and stdout, as `replay --stdio` serves a client; `answer` sees each message as it arrives and
 * may send a reply (a client answering the live server's own requests).
 */
export async function startStdioReplayClient(
  golden: string,
  options: StdioReplayOptions,
  answer?: (message: StdioLine, send: (message: unknown) => void) => void,
): Promise<StdioReplayClient> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: { at: number; message: StdioLine }[] = [];
  const send = (message: unknown): void => {
    stdin.write(`${JSON.stringify(message)}\n`);
  };
  let buffered = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const message = JSON.parse(buffered.slice(0, end)) as StdioLine;
      buffered = buffered.slice(end + 1);
      lines.push({ at: Date.now(), message });
      answer?.(message, send);
    }
  });
  const replay = serveReplayStdio([await readGolden(golden)], { pace: 'instant', ...options, stdin, stdout });
  const until = async (done: () => boolean, limitMs = 5000): Promise<void> => {
    for (let waited = 0; waited < limitMs && !done(); waited += 25) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  return {
    replay,
    lines,
    send,
    until,
    async initialize(name, capabilities = {}) {
      send({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name, version: '1' } },
      });
      await until(() => lines.some((l) => l.message.id === 0));
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    },
    async close() {
      stdin.end();
      await replay.closed;
    },
  };
}
