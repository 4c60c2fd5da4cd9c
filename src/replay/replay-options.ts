import type { JsonRpcMessage } from '../transcript/frame-content.js';
import type { ChunkingOptions } from './chunking.js';

/** How fast to replay: at the recorded offsets, all at once, or scaled (`{ scale: 2 }` = half speed). */
export type Pace = 'recorded' | 'instant' | { readonly scale: number };

/** A request the replayer could not match, as handed to `onUnmatchedRequest`. */
export interface UnmatchedRequest {
  readonly httpMethod: string;
  readonly message?: JsonRpcMessage;
  /** The error text sent back. */
  readonly error: string;
}

/** Applies the `onUnmatchedRequest` option (the error answer itself is sent by the caller). */
export function reportUnmatched(mode: ReplayOptions['onUnmatchedRequest'], request: UnmatchedRequest): void {
  if (mode === 'warn') process.stderr.write(`[mcp-golden] ${request.error}\n`);
  else if (typeof mode === 'function') mode(request);
}

/** Options shared by every replay transport. */
export interface ReplayOptions {
  /** @default 'recorded' */
  readonly pace?: Pace;
  /**
   * What to do with a request no golden recorded. Every mode answers it with a JSON-RPC error
   * naming the closest recorded request and lists it in `report()`; `'warn'` also prints it, and a
   * function is called with it. @default 'error'
   */
  readonly onUnmatchedRequest?: 'error' | 'warn' | ((request: UnmatchedRequest) => void);
  /** Adversarial re-chunking of SSE events. @default none: byte-exact */
  readonly chunking?: ChunkingOptions;
}

/** One request the replayer received. */
export interface ReplayReportEntry {
  readonly session: string | null;
  readonly httpMethod: string;
  readonly method?: string;
  readonly id?: unknown;
  /** `"<golden> #<exchange>"` of the recorded answer, or `null` when unmatched. */
  readonly matched: string | null;
  readonly error?: string;
}

/** What the replayer received and how it answered. */
export interface ReplayReport {
  readonly requests: readonly ReplayReportEntry[];
  readonly unmatched: readonly ReplayReportEntry[];
}

/** Where a response goes: a node:http response, an msw stream, a stdout. */
export interface ResponseSink {
  head(status: number, headers: Record<string, string>): void;
  write(bytes: Uint8Array | string): void;
  end(): void;
  /** Called once if the client goes away before `end()`. */
  onClose(listener: () => void): void;
}

/** A request as the engine sees it. */
export interface IncomingRequest {
  readonly httpMethod: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}
