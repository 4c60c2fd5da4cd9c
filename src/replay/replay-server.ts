import { createServer, type ServerResponse } from 'node:http';
import { type FrontDoorOptions, takeNodeRequest } from '../http/front-door.js';
import { closeNow, listenLoopback } from '../http/listen-loopback.js';
import type { Transcript } from '../transcript/frame.js';
import type { ResponseSink } from './http-exchange.js';
import { createHttpReplay } from './http-replay.js';
import type { ReplayOptions } from './replay-engine.js';
import { type AuditedRequest, FaultFront, type ReplayFaults } from './replay-faults.js';
import type { GoldenInput } from './replay-plan.js';
import type { ReplayReport } from './replay-report.js';
import type { UnmatchedFallback } from './unmatched-fallback.js';

/** Options of {@link createReplayServer}. */
export interface ReplayServerOptions extends ReplayOptions, FrontDoorOptions {
  /** Port on 127.0.0.1; 0 picks a free one. @default 0 */
  readonly port?: number;
  /** Path of the MCP endpoint. @default '/mcp' */
  readonly path?: string;
  /** Answers the requests no golden matches (the CLI's `--unmatched passthrough`). @default none: they are refused */
  readonly fallback?: UnmatchedFallback;
  /** Request-level faults for client tests (a 5xx, a dead session, a cut stream); audited in `audit()`. @default none */
  readonly faults?: ReplayFaults;
}

/** A golden served as an MCP upstream on loopback HTTP. */
export interface ReplayServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:40123/mcp`. */
  readonly url: string;
  readonly port: number;
  /** Every request received, and those no golden matched. */
  report(): ReplayReport;
  /** Every request with its times, headers and what became of its response (what a client test judges on). */
  audit(): readonly AuditedRequest[];
  close(): Promise<void>;
}

/** A response, and whether its writes are held back until the turn of the loop ends. */
interface Corkable {
  readonly res: ServerResponse;
  corked: boolean;
}

/**
 * Responses corked in this turn of the loop, uncorked together when it ends (one tick for all). A
 * list and a flag on each, not a Set: at a thousand streams, adding and deleting every response at
 * every event made the Set's table grow and shrink (about 5 % of what the replay allocated).
 */
let corkedResponses: Corkable[] = [];

function uncorkAll(): void {
  const corked = corkedResponses;
  corkedResponses = [];
  for (const entry of corked) uncork(entry);
}

/** Lets a corked response's held writes leave now (a response flushed earlier in the turn is listed but no longer corked). */
function uncork(entry: Corkable): void {
  if (!entry.corked) return;
  entry.corked = false;
  entry.res.uncork();
}

/**
 * Everything written to one response in one turn of the loop (the events due at one wake-up, the
 * pieces of one event, a head and what follows it) leaves in one `writev` when the turn ends, not
 * one system call each.
 */
function cork(entry: Corkable): void {
  if (entry.corked) return;
  if (corkedResponses.length === 0) process.nextTick(uncorkAll);
  entry.corked = true;
  corkedResponses.push(entry);
  entry.res.cork();
}

/**
 * The sink of one node:http response. A class, so a response costs one object, not a closure per
 * method (every request of every session has one); it is its own entry in the corked list.
 */
class NodeResponseSink implements ResponseSink, Corkable {
  corked = false;
  private done = false;
  /** Who to tell when the client goes away first: most responses have none or one. */
  private listeners: (() => void) | (() => void)[] | undefined;

  constructor(readonly res: ServerResponse) {
    res.on('close', () => this.closed());
  }

  private closed(): void {
    if (this.done) return;
    this.done = true;
    const listeners = this.listeners;
    if (typeof listeners === 'function') listeners();
    else if (listeners) for (const listener of listeners) listener();
  }

  head(status: number, headers: Record<string, string>): void {
    if (this.done || this.res.headersSent) return;
    // The head leaves with whatever follows it in the same turn (a 202's end, a stream's first event).
    cork(this);
    this.res.writeHead(status, headers);
    this.res.flushHeaders();
  }

  write(bytes: Uint8Array | string): void {
    if (this.done) return;
    cork(this);
    this.res.write(bytes);
  }

  writeAll(pieces: readonly Uint8Array[]): void {
    if (this.done) return;
    cork(this);
    for (const piece of pieces) this.res.write(piece);
  }

  flush(): void {
    uncork(this);
  }

  end(): void {
    if (this.done) return;
    this.done = true;
    // end() uncorks the socket fully: nothing is left to uncork when the turn ends (the socket may
    // by then carry the next response of a keep-alive connection).
    this.corked = false;
    this.res.end();
  }

  onClose(listener: () => void): void {
    const listeners = this.listeners;
    if (listeners === undefined) this.listeners = listener;
    else if (typeof listeners === 'function') this.listeners = [listeners, listener];
    else listeners.push(listener);
  }
}

/** A {@link ResponseSink} over a node:http response that ignores writes once the client is gone. */
export function nodeResponseSink(res: ServerResponse): ResponseSink {
  return new NodeResponseSink(res);
}

/**
 * Serves goldens as a fake MCP upstream over Streamable HTTP on 127.0.0.1: recorded frames,
 * byte-exact, at their recorded offsets, with the live request's id and progress token stamped in.
 *
 * @example
 * const replay = await createReplayServer([await readGolden('goldens/progress-10x100.jsonl')])
 * // start the gateway under test with replay.url as its upstream ...
 * expect(replay.report().unmatched).toEqual([])
 * await replay.close()
 */
export async function createReplayServer(
  goldens: Transcript | GoldenInput | readonly GoldenInput[],
  options: ReplayServerOptions = {},
): Promise<ReplayServer> {
  const replay = createHttpReplay(Array.isArray(goldens) ? goldens : [goldens as GoldenInput], options, options);
  replay.fallback = options.fallback;
  const front = new FaultFront(options.faults);
  const path = options.path ?? '/mcp';
  const door = { ...options, path };
  const server = createServer((req, res) => {
    req.socket.setNoDelay(true);
    // Path and body through the front door; the audit and faults see every request read, then the router.
    takeNodeRequest(req, res, door, (request) => {
      const admitted = front.admit(request, nodeResponseSink(res));
      if (admitted) replay.handle(admitted.request, admitted.sink);
    });
  });
  const port = await listenLoopback(server, options.port);
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    report: () => replay.report(),
    audit: () => front.requests,
    async close() {
      replay.close();
      await closeNow(server);
    },
  };
}
