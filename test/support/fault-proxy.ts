import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBrotliCompress } from 'node:zlib';
import { recordCall } from '../../src/record/record-call.js';
import type { Scenario } from '../../src/record/scenario.js';
import type { Transcript } from '../../src/transcript/frame.js';
import { SseParser } from '../../src/transcript/sse.js';

/** Ways a gateway breaks MCP streaming, and benign transforms a faithful gateway may apply. */
export type Fault =
  | 'none'
  | 'buffer'
  // buffers SSE like 'buffer' unless the upstream's response says X-Accel-Buffering: no (a stock
  // nginx, proxy_buffering on)
  | 'buffer-unless-accel'
  | 'rewrite-token'
  | 'token-to-string'
  | 'merge-blocks'
  | 'reorder-blocks'
  | 'latin1'
  | 'truncate'
  | 'drop-last-progress'
  | 'progress-after-result'
  | 'drop-cancel'
  // decodes each upstream read as UTF-8 on its own: characters split across reads become U+FFFD
  | 'utf8-per-read'
  // loses a progress notification that arrives within 5 ms of the result (the two share a read)
  | 'drop-final-if-coalesced'
  // numbers upstream requests from 0 per session and maps answers back, but forwards
  // notifications/cancelled with the client's id untranslated
  | 'cancel-id-untranslated'
  // drops every progress notification; with 'drop-cancel' too in 'drop-progress-and-cancel'
  | 'drop-progress'
  | 'drop-progress-and-cancel'
  // sends progress on the session's standalone GET stream instead of the call's stream
  | 'progress-on-get'
  // drops a progress notification that follows the previous one within 1 ms (a debouncer)
  | 'debounce-burst'
  // drops progress while the client's socket pushes back (res.write() returned false, until 'drain')
  | 'drop-on-backpressure'
  // ends every SSE response 1 s after it began, as a proxy's request timeout would
  | 'timeout-1s'
  // forwards faithfully, but blocks its process's event loop for 80 ms on the 3rd progress
  // notification of every stream (of the first two streams only, in 'block-loop-twice'): a gateway
  // running in the check's own process stalls the check too
  | 'block-loop'
  | 'block-loop-twice'
  // re-serialises SSE without the event: field (data and id only)
  | 'drop-event-field'
  // delivers each response on the call's stream and again on the session's standalone GET stream
  | 'duplicate-response'
  // routes progress by token alone: to the stream of the latest request (any session) with that token
  | 'route-progress-by-token'
  // compresses SSE with brotli for a client that accepts br, and holds it in the compressor
  // (flushed only at the end of the response)
  | 'compress-hold'
  // renumbers string request ids to its own numbers (numeric ones kept), but forwards the client's
  // Content-Length unchanged
  | 'stale-content-length'
  // keeps every SSE event of every session in one list keyed by event id, and answers a GET with
  // Last-Event-ID itself from that list, whatever the session
  | 'global-event-replay'
  // forwards faithfully, but a client closing its response stream is not passed on: the upstream
  // connection stays open, so a 2026-07-28 upstream never learns of the cancel
  | 'ignore-hang-up'
  // forwards faithfully, but drops the Mcp-Name request header (2026-07-28)
  | 'drop-mcp-name'
  // keeps the progress events of each SSE stream by progress token, and writes them again at the
  // start of a later request with the same token (a cache answering a re-issued call with stale frames)
  | 'stale-on-reissue'
  // forwards every tools/call HOLD_CALL_MS (1 s) late and everything else at once: a cancel sent
  // 300 ms into a call reaches the upstream before the call it names, as on a starved machine
  | 'hold-calls'
  // 'hold-calls' for the first call of a cancellation row only (its arguments carry a "check-cancel-" tag):
  // the overtaking of a starved machine, which a second look does not meet again
  | 'hold-first-cancel-call'
  // benign
  // compresses SSE with brotli for a client that accepts br, flushing after every upstream read
  | 'compress-flush'
  | 'remap-ids'
  | 'rechunk'
  | 'reorder-keys'
  | 'keep-alive-comments';

/** How long 'hold-calls' holds a tools/call: well past the timed cancel row's 300 ms, however late a loaded machine fires it. */
const HOLD_CALL_MS = 1000;

type Message = Record<string, unknown> & {
  params?: Record<string, unknown>;
  result?: { content?: { type: string; text: string }[] };
};

/** Runs nothing else for `ms`: the event loop of the whole process is blocked. */
function blockLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy on purpose
  }
}

function renderEvent(message: Message, id: string | undefined, named = true): string {
  return `${named ? 'event: message\n' : ''}${id !== undefined ? `id: ${id}\n` : ''}data: ${JSON.stringify(message)}\n\n`;
}

function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reverseKeys(v)]),
  );
}

/** Rewrites one message for a message-level fault; `undefined` drops it. */
function transform(fault: Fault, message: Message): Message | undefined {
  const params = message.params;
  const content = message.result?.content;
  switch (fault) {
    case 'rewrite-token':
      return params && 'progressToken' in params
        ? { ...message, params: { ...params, progressToken: 'gateway-token' } }
        : message;
    case 'token-to-string':
      return params && typeof params.progressToken === 'number'
        ? { ...message, params: { ...params, progressToken: String(params.progressToken) } }
        : message;
    case 'merge-blocks':
      if (!content || content.length < 2) return message;
      return {
        ...message,
        result: {
          ...message.result,
          content: [{ type: 'text', text: `${content[0]?.text}${content[1]?.text}` }, ...content.slice(2)],
        },
      };
    case 'reorder-blocks':
      if (!content || content.length < 2) return message;
      return { ...message, result: { ...message.result, content: [...content].reverse() } };
    case 'latin1':
      if (!content) return message;
      return {
        ...message,
        result: {
          ...message.result,
          content: content.map((c) => ({ ...c, text: Buffer.from(c.text, 'utf8').toString('latin1') })),
        },
      };
    case 'truncate':
      if (!content) return message;
      return {
        ...message,
        result: { ...message.result, content: content.map((c) => ({ ...c, text: c.text.slice(0, 1000) })) },
      };
    case 'reorder-keys':
      return reverseKeys(message) as Message;
    default:
      return message;
  }
}

/**
 * Per-session request numbering, as a gateway's own upstream client does: the upstream sees the
 * gateway's ids; answers are mapped back to the client's id.
 */
class IdMapper {
  private readonly next = new Map<string, number>();
  constructor(private readonly base: number) {}

  /** The upstream id for a request of `session` (`undefined` for initialize, which opens one). */
  assign(session: string | undefined, clientId: unknown, table: Map<string, unknown>): number {
    const key = session ?? '';
    const id = session === undefined ? this.base : (this.next.get(key) ?? this.base + 1);
    if (session !== undefined) this.next.set(key, id + 1);
    table.set(`${key}|${JSON.stringify(clientId)}`, id);
    table.set(`${key}|up:${id}`, clientId);
    return id;
  }
}

/** A running fault-injecting proxy. */
export interface FaultProxy {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A small reverse proxy that forwards MCP Streamable HTTP to `upstream` and applies one fault to
 * the SSE responses (or a benign transform). The broken paths the matchers and the check must
 * catch are built from it.
 */
export async function startFaultProxy(upstream: string, fault: Fault): Promise<FaultProxy> {
  const target = new URL(upstream);
  const mapper = new IdMapper(fault === 'remap-ids' || fault === 'stale-content-length' ? 1000 : 0);
  const upstreamIds = new Map<string, unknown>();
  const getStreams = new Map<string, (text: string) => void>();
  let progressStreams = 0;
  // route-progress-by-token: the stream of the latest request carrying each token, any session.
  const byToken = new Map<string, (text: string) => void>();
  // global-event-replay: every event seen, of every session, in order.
  const allEvents: { id: string; text: string }[] = [];
  const staleByToken = new Map<string, string[]>();
  // hold-first-cancel-call: whether it held its one call.
  let heldOne = false;
  const server = createServer((req, res) => {
    const resumeFrom = req.headers['last-event-id'];
    if (fault === 'global-event-replay' && req.method === 'GET' && typeof resumeFrom === 'string') {
      const at = allEvents.findIndex((e) => e.id === resumeFrom);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const event of at >= 0 ? allEvents.slice(at + 1) : []) res.write(event.text);
      setTimeout(() => res.end(), 100);
      return;
    }
    const session = req.headers['mcp-session-id'] as string | undefined;
    const remapping = fault === 'remap-ids' || fault === 'cancel-id-untranslated' || fault === 'stale-content-length';
    let clientId: unknown;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    const onEnd = () => {
      let body = Buffer.concat(chunks);
      const clientLength = body.length;
      if (remapping && body.length > 0) {
        // A gateway that numbers upstream requests its own way, and maps the answers back.
        const message = JSON.parse(body.toString()) as Message;
        const keepsId = fault === 'stale-content-length' && typeof message.id !== 'string';
        if ('id' in message && 'method' in message && !keepsId) {
          clientId = message.id;
          message.id = mapper.assign(session, message.id, upstreamIds);
        }
        const cancelled = message.method === 'notifications/cancelled' && message.params;
        if (cancelled && (fault === 'remap-ids' || fault === 'stale-content-length')) {
          const mapped = upstreamIds.get(`${session ?? ''}|${JSON.stringify(cancelled.requestId)}`);
          if (mapped !== undefined) cancelled.requestId = mapped;
        }
        body = Buffer.from(JSON.stringify(message));
      }
      let requestToken: string | undefined;
      if (fault === 'route-progress-by-token' && body.length > 0) {
        try {
          const token = (JSON.parse(body.toString()) as Message).params?._meta as
            | { progressToken?: unknown }
            | undefined;
          if (token?.progressToken !== undefined) requestToken = JSON.stringify(token.progressToken);
        } catch {}
      }
      const dropsCancel = fault === 'drop-cancel' || fault === 'drop-progress-and-cancel';
      if (dropsCancel && body.toString().includes('"notifications/cancelled"')) {
        res.writeHead(202).end();
        return;
      }
      const requestHeaders = { ...req.headers };
      if (fault === 'drop-mcp-name') delete requestHeaders['mcp-name'];
      let staleKey: string | undefined;
      if (fault === 'stale-on-reissue' && body.length > 0) {
        try {
          const token = (JSON.parse(body.toString()) as Message).params?._meta as
            | { progressToken?: unknown }
            | undefined;
          if (token?.progressToken !== undefined) staleKey = JSON.stringify(token.progressToken);
        } catch {}
      }
      const forward = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: {
            ...requestHeaders,
            host: target.host,
            ...(body.length > 0 && {
              'content-length': String(fault === 'stale-content-length' ? clientLength : body.length),
            }),
          },
        },
        (upRes) => {
          const headers = { ...upRes.headers };
          delete headers['content-length'];
          const restoreId = (message: Message): Message =>
            remapping && 'id' in message && !('method' in message)
              ? {
                  ...message,
                  id: upstreamIds.get(`${session ?? ''}|up:${String(message.id)}`) ?? clientId ?? message.id,
                }
              : message;
          if (remapping && !String(upRes.headers['content-type'] ?? '').includes('text/event-stream')) {
            // JSON answers are small: map the id back on the whole body.
            const parts: Buffer[] = [];
            upRes.on('data', (c: Buffer) => parts.push(c));
            upRes.on('end', () => {
              const text = Buffer.concat(parts).toString();
              let out = text;
              try {
                const message = JSON.parse(text) as Message;
                out = JSON.stringify(restoreId(message));
              } catch {}
              res.writeHead(upRes.statusCode ?? 502, headers);
              res.end(out);
            });
            return;
          }
          const isSse = String(upRes.headers['content-type'] ?? '').includes('text/event-stream');
          const acceptsBr = /\bbr\b/.test(String(req.headers['accept-encoding'] ?? ''));
          if ((fault === 'compress-hold' || fault === 'compress-flush') && isSse && acceptsBr) {
            res.writeHead(upRes.statusCode ?? 502, { ...headers, 'content-encoding': 'br' });
            const br = createBrotliCompress();
            br.pipe(res);
            upRes.on('data', (chunk: Buffer) => {
              br.write(chunk);
              if (fault === 'compress-flush') br.flush();
            });
            upRes.on('end', () => br.end());
            res.on('close', () => upRes.destroy());
            return;
          }
          res.writeHead(upRes.statusCode ?? 502, headers);
          res.flushHeaders();
          if (fault === 'utf8-per-read') {
            upRes.on('data', (chunk: Buffer) => res.write(chunk.toString('utf8')));
            upRes.on('end', () => res.end());
            return;
          }
          if (fault === 'none' || fault === 'drop-mcp-name') res.on('close', () => upRes.destroy());
          if (!isSse || fault === 'none' || fault === 'ignore-hang-up' || fault === 'drop-mcp-name') {
            upRes.pipe(res);
            return;
          }
          if (fault === 'timeout-1s') setTimeout(() => res.destroy(), 1000).unref();
          const isGet = req.method === 'GET';
          const toGet = (text: string): void => {
            if (session !== undefined) getStreams.get(session)?.(text);
          };
          if (isGet && session !== undefined) {
            getStreams.set(session, (text) => res.write(text));
            res.on('close', () => getStreams.delete(session));
          }
          if (requestToken !== undefined) byToken.set(requestToken, (text) => res.write(text));
          let congested = false;
          res.on('drain', () => {
            congested = false;
          });
          let lastProgressAt = Number.NEGATIVE_INFINITY;
          let progressSeen = 0;
          let pendingProgress: { text: string; at: number } | undefined;
          const parser = new SseParser();
          const held: Buffer[] = [];
          let heldProgress: string | undefined;
          let chain: Promise<void> = Promise.resolve();
          const holds =
            fault === 'buffer' || (fault === 'buffer-unless-accel' && upRes.headers['x-accel-buffering'] !== 'no');
          const write = (text: string | Uint8Array): void => {
            if (holds) held.push(Buffer.from(text));
            else if (!res.write(text)) congested = true;
          };
          const flushPending = (): void => {
            if (pendingProgress) write(pendingProgress.text);
            pendingProgress = undefined;
          };
          const onBlock = (raw: Uint8Array, data: string | undefined, id: string | undefined): void => {
            let message: Message | undefined;
            try {
              message = data ? (JSON.parse(data) as Message) : undefined;
            } catch {
              message = undefined;
            }
            if (!message) {
              write(raw);
              return;
            }
            if (fault === 'rechunk') {
              // Each event in two writes 3 ms apart, events kept in order.
              const half = Math.floor(raw.length / 2);
              chain = chain.then(async () => {
                res.write(raw.subarray(0, half));
                await new Promise((resolve) => setTimeout(resolve, 3));
                res.write(raw.subarray(half));
              });
              return;
            }
            if (fault === 'keep-alive-comments') write(': keepalive\n\n');
            message = restoreId(message);
            const isProgress = message.method === 'notifications/progress';
            const now = performance.now();
            if (isProgress && !isGet) {
              if (fault === 'drop-progress' || fault === 'drop-progress-and-cancel') return;
              if (fault === 'progress-on-get') {
                toGet(renderEvent(message, id));
                return;
              }
              if (fault === 'drop-on-backpressure' && congested) return;
              if (fault === 'route-progress-by-token') {
                const route = byToken.get(JSON.stringify(message.params?.progressToken));
                if (route) {
                  route(renderEvent(message, id));
                  return;
                }
              }
              progressSeen++;
              if (progressSeen === 1) progressStreams++;
              const blocks = fault === 'block-loop' || (fault === 'block-loop-twice' && progressStreams <= 2);
              if (blocks && progressSeen === 3) blockLoop(80);
              const gap = now - lastProgressAt;
              lastProgressAt = now;
              if (fault === 'debounce-burst' && gap < 1) return;
              if (fault === 'drop-final-if-coalesced') {
                // Held briefly: a gateway that lets the result overtake (and lose) a just-written progress.
                flushPending();
                pendingProgress = { text: renderEvent(message, id), at: now };
                setTimeout(flushPending, 5);
                return;
              }
            }
            if (fault === 'drop-final-if-coalesced' && pendingProgress && 'id' in message) {
              if (now - pendingProgress.at < 5) pendingProgress = undefined;
              else flushPending();
            }
            if (fault === 'drop-last-progress' || fault === 'progress-after-result') {
              if (isProgress) {
                if (heldProgress) write(heldProgress);
                heldProgress = renderEvent(message, id);
                return;
              }
              if (heldProgress && 'id' in message) {
                write(renderEvent(message, id));
                if (fault === 'progress-after-result') write(heldProgress);
                heldProgress = undefined;
                return;
              }
            }
            const out = transform(fault, message);
            if (out && id !== undefined && fault === 'global-event-replay')
              allEvents.push({ id, text: renderEvent(out, id) });
            if (out) write(renderEvent(out, id, fault !== 'drop-event-field'));
            if (out && fault === 'duplicate-response' && !isGet && 'id' in out && !('method' in out))
              toGet(renderEvent(out, undefined));
            if (fault === 'stale-on-reissue' && isProgress && staleKey !== undefined) {
              const kept = staleByToken.get(staleKey) ?? [];
              if (kept.length === 0) staleByToken.set(staleKey, kept);
              if (!kept.includes(renderEvent(message, id))) kept.push(renderEvent(message, id));
            }
          };
          if (fault === 'stale-on-reissue' && staleKey !== undefined) {
            for (const text of staleByToken.get(staleKey) ?? []) write(text);
            staleByToken.delete(staleKey);
          }
          upRes.on('data', (chunk: Buffer) => {
            for (const block of parser.push(new Uint8Array(chunk))) onBlock(block.bytes, block.data, block.id);
          });
          upRes.on('end', () => {
            for (const block of parser.end()) onBlock(block.bytes, block.data, block.id);
            if (heldProgress) write(heldProgress);
            flushPending();
            if (holds) res.write(Buffer.concat(held));
            void chain.then(() => res.end());
          });
          res.on('close', () => upRes.destroy());
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(body);
    };
    req.on('end', () => {
      // hold-calls: a tools/call goes on HOLD_CALL_MS late, what follows it (its cancel) at once. Over a stdio
      // upstream the check reads the audit log with a tools/call through the gateway too: that is held as well.
      const body = Buffer.concat(chunks);
      const held =
        body.includes('"tools/call"') &&
        (fault === 'hold-calls' || (fault === 'hold-first-cancel-call' && !heldOne && body.includes('"check-cancel-')));
      if (!held) return onEnd();
      heldOne = true;
      setTimeout(onEnd, HOLD_CALL_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  const url = new URL(upstream);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.href,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Records `scenario` through a proxy applying `fault` in front of `upstream`, and stops the proxy. */
export async function recordThroughFault(upstream: string, fault: Fault, scenario: Scenario): Promise<Transcript> {
  const proxy = await startFaultProxy(upstream, fault);
  try {
    return await recordCall(proxy.url, scenario);
  } finally {
    await proxy.close();
  }
}
