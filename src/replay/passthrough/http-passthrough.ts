import type { Writable } from 'node:stream';
import { GoldenError } from '../../errors.js';
import { passthroughHandshake } from '../../record/client-handshake.js';
import { startProxySessions } from '../../record/proxy-sessions.js';
import { httpTargetParts, secretPatterns } from '../../record/target-secrets.js';
import { SECRET_HEADERS } from '../../transcript/redact.js';
import type { FallbackRequest, StandaloneStream, UnmatchedFallback } from '../unmatched-fallback.js';
import { modernPassthrough } from './modern-passthrough.js';
import {
  describeBody,
  PASSTHROUGH_ACCEPT,
  type PassedThrough,
  refuseRequest,
  relayAnswer,
  unreachable,
} from './relay.js';

/** `replay --unmatched passthrough --target URL`: the fallback and what it did. */
export interface HttpPassthrough {
  readonly fallback: UnmatchedFallback;
  readonly passed: readonly PassedThrough[];
  /** Ends the live sessions still open, writes their goldens and returns every file written. */
  finish(): Promise<readonly string[]>;
}

/** The live session that stands in for one replay session. */
interface LiveSession {
  readonly id: string | undefined;
  readonly protocolVersion: string;
}

/** The JSON-RPC id of a request body as JSON text (a cancel names it by value), or `undefined`. */
function idText(body: string): string | undefined {
  try {
    const message = JSON.parse(body) as { id?: unknown; method?: unknown };
    return typeof message.method === 'string' && message.id !== undefined ? JSON.stringify(message.id) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Passes the requests no golden matches to the live server at `target`, through a recording proxy:
 * each replay session gets a live session of its own (opened with the client's own `initialize`
 * the first time one of its requests is passed through), the live answer is streamed back as it
 * arrives (progress included) under the replay's session id, and each live session is written to
 * `out` as a new golden when its replay session ends (the client's DELETE) or at {@link
 * HttpPassthrough.finish}, redacted as `record` redacts.
 */
export async function startHttpPassthrough(
  target: string,
  out: string,
  log: Pick<Writable, 'write'>,
  sessionIdleMs?: number,
): Promise<HttpPassthrough> {
  if (!/^https?:\/\//.test(target) || !URL.canParse(target)) {
    throw new GoldenError(
      'E_USAGE',
      `Invalid --target "${target.replace(/[?#].*$/s, '')}" for --unmatched passthrough: expected the http:// URL of the live MCP server. Run \`mcp-golden replay --help\` for usage.`,
    );
  }
  const parts = httpTargetParts(target);
  const proxy = await startProxySessions({
    upstream: parts.url,
    redact: { headers: [...SECRET_HEADERS, ...parts.secretHeaders], patterns: secretPatterns(parts.values) },
    out,
    prefix: 'passthrough',
    label: parts.label,
    log: (line) => log.write(`${line}\n`),
    ...(sessionIdleMs !== undefined && { sessionIdleMs }),
  });
  const lives = new Map<object, Promise<LiveSession>>();
  /** The ids of the requests each replay session passed through, as JSON text (a cancel names one). */
  const passedIds = new Map<object, Set<string>>();
  const passed: PassedThrough[] = [];

  const post = (body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> =>
    fetch(proxy.url, {
      method: 'POST',
      headers: { ...parts.headers, 'content-type': 'application/json', accept: PASSTHROUGH_ACCEPT, ...headers },
      body,
      ...(signal && { signal }),
    });

  // 2026-07-28 requests: no session, each passed on as it came (see modernPassthrough).
  const forwardModern = modernPassthrough({ label: parts.label, url: parts.url, headers: parts.headers, post });

  // The live session's handshake: the client's own initialize (or the recorder's), then initialized.
  const open = (initialize: string | undefined): Promise<LiveSession> =>
    passthroughHandshake((body, headers) => post(body, headers), initialize);

  /** The live session's standalone GET stream, by replay session: its server requests go to the client's. */
  const listening = new Map<object, AbortController>();
  const listen = (session: object, id: string, protocolVersion: string, standalone: StandaloneStream): void => {
    if (listening.has(session)) return;
    const abort = new AbortController();
    listening.set(session, abort);
    // The client's stream gone, the live one goes too (a live session with a stream open is never idle).
    standalone.onClose(() => {
      if (listening.get(session) === abort) stopListening(session);
    });
    const relay = async (): Promise<void> => {
      const response = await fetch(proxy.url, {
        method: 'GET',
        headers: {
          ...parts.headers,
          accept: 'text/event-stream',
          'mcp-session-id': id,
          'mcp-protocol-version': protocolVersion,
        },
        signal: abort.signal,
      });
      // A server without a standalone stream (405) sends its requests on the call's stream instead.
      if (!response.ok || !response.body) return void (await response.body?.cancel());
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let pending = '';
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        pending += decoder.decode(read.value, { stream: true });
        // Whole events only, without the live server's event ids (the client resumes from the replay's).
        for (let end = pending.indexOf('\n\n'); end >= 0; end = pending.indexOf('\n\n')) {
          const event = pending
            .slice(0, end)
            .split('\n')
            .filter((line) => !line.startsWith('id:'));
          pending = pending.slice(end + 2);
          if (event.length > 0) standalone.write(`${event.join('\n')}\n\n`);
        }
      }
    };
    relay().catch(() => undefined);
  };
  const stopListening = (session: object): void => {
    listening.get(session)?.abort();
    listening.delete(session);
  };

  const forward = async ({
    session,
    sessionId,
    initialize,
    request,
    sink,
    era,
    standalone,
  }: FallbackRequest): Promise<void> => {
    const entry: PassedThrough = { request: describeBody(request.body), outcome: 'pending' };
    passed.push(entry);
    const setOutcome = (outcome: string): void => {
      passed[passed.indexOf(entry)] = { ...entry, outcome };
    };
    if (era === 'modern') return forwardModern(request, sink, setOutcome);
    const id = idText(request.body);
    if (id !== undefined) passedIds.set(session, (passedIds.get(session) ?? new Set()).add(id));
    let live = lives.get(session);
    if (!live) {
      const opening = open(initialize);
      // A handshake that failed (the live server not up yet) is tried again by the next request, not kept.
      opening.catch(() => {
        if (lives.get(session) === opening) lives.delete(session);
      });
      live = opening;
      lives.set(session, live);
    }
    const aborted = new AbortController();
    sink.onClose(() => aborted.abort());
    let headSent = false;
    try {
      const { id, protocolVersion } = await live;
      if (id !== undefined && standalone) listen(session, id, protocolVersion, standalone);
      const response = await post(
        request.body,
        {
          accept: request.headers.accept ?? PASSTHROUGH_ACCEPT,
          'mcp-protocol-version': request.headers['mcp-protocol-version'] ?? protocolVersion,
          ...(id !== undefined && { 'mcp-session-id': id }),
        },
        aborted.signal,
      );
      const sessionHeader = sessionId !== null ? { 'mcp-session-id': sessionId } : {};
      await relayAnswer(
        response,
        sink,
        ['content-type', 'cache-control'],
        () => {
          headSent = true;
          setOutcome(`HTTP ${response.status}`);
        },
        sessionHeader,
      );
    } catch (error) {
      if (aborted.signal.aborted) return;
      const why = (error as Error).message;
      setOutcome(`failed: ${why}`);
      if (headSent) sink.end();
      else refuseRequest(sink, request.body, unreachable(parts.label, why));
    }
  };

  const end = async (live: Promise<LiveSession>): Promise<void> => {
    const { id, protocolVersion } = await live.catch(() => ({ id: undefined, protocolVersion: '' }));
    if (id === undefined) return;
    await fetch(proxy.url, {
      method: 'DELETE',
      headers: { ...parts.headers, 'mcp-session-id': id, 'mcp-protocol-version': protocolVersion },
    })
      .then((response) => response.arrayBuffer())
      .catch(() => undefined);
  };

  const ending = new Set<Promise<void>>();
  const fallback: UnmatchedFallback = {
    forward(unmatched) {
      void forward(unmatched);
    },
    claims(session, message) {
      if (!lives.has(session)) return false;
      // The client's answer to a request the live server sent during a passed-through call.
      if (typeof message.method !== 'string') return 'id' in message;
      if (message.method !== 'notifications/cancelled') return false;
      const named = (message.params as { requestId?: unknown } | undefined)?.requestId;
      return named !== undefined && (passedIds.get(session)?.has(JSON.stringify(named)) ?? false);
    },
    sessionEnded(session) {
      const live = lives.get(session);
      if (!live) return;
      lives.delete(session);
      passedIds.delete(session);
      stopListening(session);
      const done = end(live).finally(() => ending.delete(done));
      ending.add(done);
    },
  };
  return {
    fallback,
    passed,
    async finish() {
      for (const session of [...listening.keys()]) stopListening(session);
      for (const live of lives.values()) ending.add(end(live));
      lives.clear();
      await Promise.all(ending);
      return proxy.close();
    },
  };
}
