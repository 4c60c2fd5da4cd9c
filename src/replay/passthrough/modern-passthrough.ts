import { passthroughDiscover } from '../../record/client-handshake.js';
import { MODERN_PROTOCOL_VERSION } from '../../transcript/frame.js';
import { parseJsonRpc } from '../../transcript/json-rpc.js';
import type { IncomingRequest, ResponseSink } from '../http-exchange.js';
import { PASSTHROUGH_ACCEPT, refuseRequest, relayAnswer, unreachable } from './relay.js';

/** What the 2026-07-28 side of `replay --unmatched passthrough --target URL` needs of the HTTP pass-through. */
export interface ModernPassthroughParts {
  /** The target as shown to people (credentials hidden). */
  readonly label: string;
  /** The target itself, asked once whether it speaks 2026-07-28 (a probe no golden should hold). */
  readonly url: string;
  /** The target's own headers (credentials), sent with the probe. */
  readonly headers: Readonly<Record<string, string>>;
  /** POSTs to the target through the recording proxy. */
  post(body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<Response>;
}

/** Passes one 2026-07-28 request on; `setOutcome` notes what the target did with it. */
export type ModernForward = (
  request: IncomingRequest,
  sink: ResponseSink,
  setOutcome: (outcome: string) => void,
) => Promise<void>;

/** Whether the target speaks 2026-07-28: `undefined` when it does, else why not. */
type Probe = Promise<string | undefined>;

/** How long the live server has to answer the pass-through's `server/discover` probe. */
const DISCOVER_TIMEOUT_MS = 10_000;

/**
 * The modern era's pass-through: a 2026-07-28 request no golden matches goes to the target as it
 * came (its envelope, its `Mcp-*` headers, no session, nothing to open first), through the
 * recording proxy, and the answer streams back (progress included); the client closing its stream
 * closes the target's, which the recording shows as the cancel. The target is asked once with
 * `server/discover` (directly, not recorded) whether it speaks 2026-07-28; a 2025-only target gets
 * the client a clear error instead of the target's own refusal of a request without a session.
 */
export function modernPassthrough(parts: ModernPassthroughParts): ModernForward {
  let probe: Probe | undefined;
  const discover = async (): Promise<string | undefined> => {
    const body = JSON.stringify(passthroughDiscover.request('mcp-golden-passthrough-discover'));
    const response = await fetch(parts.url, {
      method: 'POST',
      headers: {
        ...parts.headers,
        'content-type': 'application/json',
        accept: PASSTHROUGH_ACCEPT,
        'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
        'mcp-method': 'server/discover',
      },
      body,
      signal: AbortSignal.timeout(DISCOVER_TIMEOUT_MS),
    }).catch((error: unknown) => {
      const timedOut = (error as Error).name === 'TimeoutError';
      throw new Error(
        timedOut ? `its server/discover got no answer within ${DISCOVER_TIMEOUT_MS} ms` : (error as Error).message,
      );
    });
    const text = await response.text();
    // A JSON body, or an SSE stream whose first data line is the answer.
    const answer = parseJsonRpc(text) ?? parseJsonRpc(/^data: (.+)$/m.exec(text)?.[1] ?? '');
    const said = text.replace(/\s+/g, ' ').trim().slice(0, 200);
    return passthroughDiscover.refusal(
      response.ok ? answer : undefined,
      `HTTP ${response.status}${said === '' ? '' : `: ${said}`}`,
    );
  };

  return async (request, sink, setOutcome) => {
    const aborted = new AbortController();
    sink.onClose(() => aborted.abort());
    let headSent = false;
    try {
      if (!probe) {
        probe = discover();
        // A target that could not be reached may be up by the next request: ask again then.
        probe.catch(() => {
          probe = undefined;
        });
      }
      const notModern = await probe;
      if (notModern !== undefined) {
        setOutcome(passthroughDiscover.refusedOutcome);
        refuseRequest(sink, request.body, passthroughDiscover.refusedMessage(parts.label, notModern, '--target'));
        return;
      }
      const headers: Record<string, string> = { accept: request.headers.accept ?? PASSTHROUGH_ACCEPT };
      for (const [name, value] of Object.entries(request.headers)) {
        if (name.startsWith('mcp-') && name !== 'mcp-session-id' && value !== undefined) headers[name] = value;
      }
      const response = await parts.post(request.body, headers, aborted.signal);
      await relayAnswer(response, sink, ['content-type', 'cache-control', 'x-accel-buffering'], () => {
        headSent = true;
        setOutcome(`HTTP ${response.status}`);
      });
    } catch (error) {
      if (aborted.signal.aborted) return;
      const why = (error as Error).message;
      setOutcome(`failed: ${why}`);
      if (headSent) sink.end();
      else refuseRequest(sink, request.body, unreachable(parts.label, why));
    }
  };
}
