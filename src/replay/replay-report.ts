import type { Writable } from 'node:stream';
import type { JsonRpcMessage } from '../transcript/frame-content.js';

/** A request the replayer could not match, as handed to `onUnmatchedRequest`. */
export interface UnmatchedRequest {
  readonly httpMethod: string;
  readonly message?: JsonRpcMessage;
  /** The error text sent back. */
  readonly error: string;
}

/** Applies the `onUnmatchedRequest` option (the error answer itself is sent by the caller). */
export function reportUnmatched(
  options: { readonly onUnmatchedRequest?: UnmatchedMode; readonly log?: Pick<Writable, 'write'> },
  request: UnmatchedRequest,
): void {
  const mode = options.onUnmatchedRequest;
  if (mode === 'warn') (options.log ?? process.stderr).write(`[mcp-golden] ${request.error}\n`);
  else if (typeof mode === 'function') mode(request);
}

/** What to do with a request no golden recorded (see `ReplayOptions.onUnmatchedRequest`). */
export type UnmatchedMode = 'error' | 'warn' | ((request: UnmatchedRequest) => void);

/** One request the replayer received. */
export interface ReplayReportEntry {
  readonly session: string | null;
  readonly httpMethod: string;
  readonly method?: string;
  readonly id?: unknown;
  /** `"<golden> #<exchange>"` of the recorded answer, or `null` when unmatched. */
  readonly matched: string | null;
  readonly error?: string;
  /**
   * How a request was answered when not byte for byte from its recording: made up as a live server
   * answers it (`ping`, an advertised capability's empty list), or matched with its progress token ignored.
   */
  readonly remark?: string;
}

/** What the replayer received and how it answered. */
export interface ReplayReport {
  readonly requests: readonly ReplayReportEntry[];
  readonly unmatched: readonly ReplayReportEntry[];
}
