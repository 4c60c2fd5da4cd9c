import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type AnswerSink, nodeAnswerSink, refusalAnswer, writeAnswer } from '../http/answering-era.js';
import type { HttpRequest } from '../http/front-door.js';
import type { SessionPeer } from '../http/http-router.js';
import { MCP_PROTOCOL_VERSIONS } from '../http/mcp-http-rules.js';
import { SessionTable } from '../http/session-table.js';
import type { AuditLog } from './audit-log.js';
import { CountingEventStore } from './counting-event-store.js';
import { holdForTurn } from './hold-for-turn.js';
import { connectWithHooks } from './reference-server.js';

/** Default idle time after which a session is closed. */
export const DEFAULT_SESSION_TTL_MS = 300_000;
/** Default most sessions kept at once. */
export const DEFAULT_MAX_SESSIONS = 1000;

/** What the 2025 side of `serve` takes from the server's options (`ReferenceServerOptions` documents each). */
export interface LegacySideOptions {
  readonly jsonResponse?: boolean;
  readonly keepAliveMs?: number;
  readonly retryMs?: number;
  readonly failAtStep?: number;
  readonly checkTools?: boolean;
  readonly sessionTtlMs?: number;
  readonly maxSessions?: number;
  readonly onError?: (error: Error) => void;
  readonly sessionIdPrefix?: string;
}

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpServer;
  /** When a request of this session last started or ended. */
  lastSeen: number;
  /** Requests (open SSE streams included) of this session not yet closed. */
  open: number;
  /** Protocol version negotiated by its `initialize`, as the SDK's server negotiates it. */
  version: string | undefined;
}

/** A request to `serve`: as it came through the front door, with the node:http pair the SDK transport answers on. */
export interface ServeRequest extends HttpRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
}

/** The 2025 side of `serve`: the SDK v1 1.32 stateful transport, one per session, with the reference tools. */
export interface LegacySide extends SessionPeer<AnswerSink, ServeRequest> {
  /** Ids of the sessions currently open. */
  ids(): string[];
  /** Closes every session. */
  close(): Promise<void>;
}

/** The version the SDK's server answers an `initialize` with: the client's when supported, else the newest. */
function negotiatedVersion(message: unknown): string | undefined {
  const params = (message as { params?: { protocolVersion?: unknown } }).params;
  const wanted = params?.protocolVersion;
  if (typeof wanted !== 'string') return undefined;
  return MCP_PROTOCOL_VERSIONS.includes(wanted) ? wanted : MCP_PROTOCOL_VERSIONS[0];
}

/**
 * The reference server's 2025 era: sessions by the answering strategy's `session` rule (an
 * `initialize` opens one, `Mcp-Session-Id` names it, an unknown one is `404`), each a stateful
 * `StreamableHTTPServerTransport` with deterministic session and event ids and resumption.
 */
export function legacySide(options: LegacySideOptions, audit: AuditLog): LegacySide {
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const sessions = new SessionTable<Session>(maxSessions, options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS, (session) =>
    session.server.close().catch(() => undefined),
  );
  const pending = new Set<Session>();
  let sessionCount = 0;
  // The response a request is answered on, for the tools it calls: a tool may hold its writes (progress_tight).
  const responses = new AsyncLocalStorage<ServerResponse>();

  const createSession = async (): Promise<Session> => {
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => `${options.sessionIdPrefix ?? 'session-'}${++sessionCount}`,
      enableJsonResponse: options.jsonResponse ?? false,
      eventStore: new CountingEventStore(),
      retryInterval: options.retryMs ?? 200,
      keepAliveMs: options.keepAliveMs ?? 0,
      onsessioninitialized: (id) => sessions.set(id, session),
      onsessionclosed: (id) => sessions.delete(id),
    });
    if (options.onError) transport.onerror = options.onError;
    const server = await connectWithHooks(transport, {
      audit,
      failAtStep: options.failAtStep,
      checkTools: options.checkTools ?? false,
      holdWrites: () => {
        const res = responses.getStore();
        if (res) holdForTurn(res);
      },
    });
    const session: Session = { transport, server, lastSeen: Date.now(), open: 0, version: undefined };
    return session;
  };

  // An unknown session, and a batch its version refuses, are the router's.
  const answer = async (request: ServeRequest, body: unknown): Promise<void> => {
    const { req, res } = request;
    const sessionId = request.headers['mcp-session-id'];
    const known = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (known) {
      sessions.track(known, res, sessionId);
      await responses.run(res, () => known.transport.handleRequest(req, res, body));
      return;
    }
    if (!sessions.makeRoom()) {
      const message = `Too many sessions: all ${maxSessions} have a request open. Retry later.`;
      return writeAnswer(nodeAnswerSink(res), refusalAnswer({ status: 503, code: -32000, message }, null));
    }
    // No session header: only an initialize request may start one; the transport answers
    // anything else with 400, and such a transport is discarded at once.
    const session = await createSession();
    if (body !== undefined) session.version = negotiatedVersion(body);
    sessions.track(session, res);
    pending.add(session);
    try {
      await responses.run(res, () => session.transport.handleRequest(req, res, body));
    } finally {
      pending.delete(session);
      if (session.transport.sessionId === undefined) await session.server.close();
    }
  };

  return {
    keepsSessions: true,
    session: (id) => (id === undefined ? undefined : sessions.get(id)),
    answer: (_read, value, request) => answer(request, value),
    ids: () => sessions.ids(),
    async close() {
      const all = [...sessions.close(), ...pending];
      await Promise.allSettled(all.map((s) => s.server.close()));
    },
  };
}
