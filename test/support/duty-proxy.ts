import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '../../src/check/gateway-process.js';
import { type CheckOptions, runGatewayCheck } from '../../src/check/run-check.js';
import type { CheckReport } from '../../src/check/vocabulary.js';
import type { FaultProxy } from './fault-proxy.js';

/**
 * What a {@link startDutyProxy} gateway does wrong (or right) with the 2026-07-28 duties and with
 * two upstream replicas:
 * - `none`: forwards everything as it is, to the first upstream (a client hang-up closes the upstream request);
 * - `rebuild-call-params`: rebuilds each `tools/call`'s params from `name`, `arguments` and `_meta`
 *   only, so `inputResponses` and `requestState` never reach the upstream;
 * - `strip-request-state`: drops `requestState` from the `input_required` results it passes to the client;
 * - `idle-cut`: answers 504 when the upstream sent no response headers within `idleCutMs`, and
 *   closes the upstream request (a load balancer's idle timeout);
 * - `idle-error`: like `idle-cut`, but answers HTTP 200 with a JSON-RPC error for the request's id (-32001);
 * - `round-robin`: sends each request to the next upstream, whatever its `Mcp-Session-Id`;
 * - `pin-session`: sends a request with `Mcp-Session-Id` to the upstream that issued that id, others round-robin.
 */
export type DutyFault =
  | 'none'
  | 'rebuild-call-params'
  | 'strip-request-state'
  | 'idle-cut'
  | 'idle-error'
  | 'round-robin'
  | 'pin-session';

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function rebuildCallParams(body: Buffer): Buffer {
  try {
    const message = JSON.parse(body.toString()) as { method?: string; params?: Record<string, unknown> };
    if (message.method !== 'tools/call' || !message.params) return body;
    const { name, arguments: args, _meta } = message.params;
    return Buffer.from(JSON.stringify({ ...message, params: { name, arguments: args, _meta } }));
  } catch {
    return body;
  }
}

function withoutRequestState(text: string): string {
  try {
    const message = JSON.parse(text) as { result?: Record<string, unknown> };
    if (message.result?.resultType !== 'input_required') return text;
    delete message.result.requestState;
    return JSON.stringify(message);
  } catch {
    return text;
  }
}

/** Starts a small gateway in front of `upstreams` (one, or two replicas) with the `fault`. */
export async function startDutyProxy(
  upstreams: readonly string[],
  fault: DutyFault,
  idleCutMs = 500,
): Promise<FaultProxy> {
  const targets = upstreams.map((u) => new URL(u));
  const owner = new Map<string, number>();
  let turn = 0;
  const server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const session = req.headers['mcp-session-id'];
      const pinned = typeof session === 'string' && fault === 'pin-session' ? owner.get(session) : undefined;
      const spread = fault === 'round-robin' || fault === 'pin-session';
      const index = pinned ?? (spread ? turn++ % targets.length : 0);
      const target = targets[index] as URL;
      const body = fault === 'rebuild-call-params' ? rebuildCallParams(raw) : raw;
      let answered = false;
      const forward = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: target.pathname,
          headers: {
            ...req.headers,
            host: target.host,
            ...(body.length > 0 && { 'content-length': String(body.length) }),
          },
        },
        (upRes) => {
          if (answered) {
            upRes.destroy();
            return;
          }
          answered = true;
          const issued = upRes.headers['mcp-session-id'];
          if (typeof issued === 'string') owner.set(issued, index);
          const json = String(upRes.headers['content-type'] ?? '').includes('application/json');
          if (fault === 'strip-request-state' && json) {
            void readBody(upRes).then((text) => {
              const out = Buffer.from(withoutRequestState(text.toString()));
              const { 'transfer-encoding': _chunked, ...headers } = upRes.headers;
              res.writeHead(upRes.statusCode ?? 502, { ...headers, 'content-length': String(out.length) });
              res.end(out);
            });
            return;
          }
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          res.flushHeaders();
          upRes.pipe(res);
          res.on('close', () => upRes.destroy());
        },
      );
      if (fault === 'idle-cut' || fault === 'idle-error') {
        const timer = setTimeout(() => {
          if (answered) return;
          answered = true;
          forward.destroy();
          const why = `the upstream sent no response headers within ${idleCutMs} ms`;
          if (fault === 'idle-cut') {
            res.writeHead(504, { 'content-type': 'text/plain' });
            res.end(`Gateway Timeout: ${why}`);
            return;
          }
          const id = (JSON.parse(raw.toString() || '{}') as { id?: unknown }).id ?? null;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32001, message: `Request timed out: ${why}` } }),
          );
        }, idleCutMs);
        forward.on('response', () => clearTimeout(timer));
        forward.on('close', () => clearTimeout(timer));
      }
      // A client that hangs up before the answer closes the upstream request too.
      res.on('close', () => {
        if (!res.writableFinished) forward.destroy();
      });
      forward.on('error', () => {
        if (!answered) res.destroy();
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${targets[0]?.pathname ?? '/mcp'}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Runs the check's `only` rows through a {@link startDutyProxy} gateway (two upstream replicas with `replicas: 2`). */
export async function checkThroughDuty(
  fault: DutyFault,
  options: Pick<CheckOptions, 'only' | 'clientEra' | 'upstreamEra' | 'idleBudgetMs'> & {
    readonly replicas?: 1 | 2;
    readonly idleCutMs?: number;
  } = {},
): Promise<CheckReport> {
  const { replicas = 1, idleCutMs, ...check } = options;
  const upstreamPort = await freePort();
  const upstream2Port = replicas === 2 ? await freePort() : undefined;
  const urls = [upstreamPort, upstream2Port].filter((p) => p !== undefined).map((p) => `http://127.0.0.1:${p}/mcp`);
  const proxy = await startDutyProxy(urls, fault, idleCutMs);
  try {
    return await runGatewayCheck({
      gatewayUrl: proxy.url,
      upstreamPort,
      ...(upstream2Port !== undefined && { upstream2Port }),
      timeoutMs: 3000,
      ...check,
    });
  } finally {
    await proxy.close();
  }
}
