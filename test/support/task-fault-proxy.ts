import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ReferenceServer, startReferenceServer } from '../../src/server/http-server.js';

/**
 * Ways a gateway breaks the tasks extension (2026-07-28), for the check's task rows:
 * - `complete-only`: re-serialises every result with `resultType: "complete"` (a bridge that knows
 *   no other result type), so a `CreateTaskResult` no longer says it is a task;
 * - `replica-round-robin`: sends `tasks/*` requests to two upstream replicas in turn, ignoring
 *   `Mcp-Name` (a load balancer without task affinity): every other poll reaches a replica that does
 *   not hold the task;
 * - `cache-task-status`: answers every `tasks/get` of a task after the first from the first answer,
 *   without asking the upstream (a cache): the client never sees the task end;
 * - `progress-on-task`: answers a `tools/call` that carried a progress token and created a task as
 *   SSE, with a made-up `notifications/progress` before the task (a gateway synthesising progress
 *   for long calls).
 */
export type TaskFault = 'none' | 'complete-only' | 'replica-round-robin' | 'cache-task-status' | 'progress-on-task';

/** A running task-fault proxy (and the replica it started, for `replica-round-robin`). */
export interface TaskFaultProxy {
  readonly url: string;
  close(): Promise<void>;
}

type Message = { id?: unknown; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> };

function forward(
  to: URL,
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const out = httpRequest(
      {
        host: to.hostname,
        port: to.port,
        method,
        path,
        headers: { ...headers, host: to.host, 'content-length': String(body.length) },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(parts) }),
        );
        res.on('error', reject);
      },
    );
    out.on('error', reject);
    out.end(body);
  });
}

const parse = (body: Buffer): Message | undefined => {
  try {
    return JSON.parse(body.toString()) as Message;
  } catch {
    return undefined;
  }
};

/**
 * A reverse proxy for 2026-07-28 requests (each a POST answered in full: the task rows' calls have
 * no streams to keep live) in front of `upstream`, applying one task fault.
 */
export async function startTaskFaultProxy(upstream: string, fault: TaskFault): Promise<TaskFaultProxy> {
  const target = new URL(upstream);
  const replica: ReferenceServer | undefined =
    fault === 'replica-round-robin' ? await startReferenceServer({ checkTools: true, legacy: 'reject' }) : undefined;
  let taskTurn = 0;
  const cached = new Map<string, Buffer>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const message = parse(body);
      const taskId = typeof message?.params?.taskId === 'string' ? message.params.taskId : undefined;
      const isTaskRequest = String(message?.method).startsWith('tasks/');
      try {
        if (fault === 'cache-task-status' && message?.method === 'tasks/get' && taskId && cached.has(taskId)) {
          const answer = parse(cached.get(taskId) as Buffer) ?? {};
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ ...answer, id: message.id }));
          return;
        }
        const to = replica && isTaskRequest && taskTurn++ % 2 === 0 ? new URL(replica.url) : target;
        const answer = await forward(to, req.method ?? 'POST', req.url ?? '/mcp', req.headers, body);
        const headers = { ...answer.headers };
        delete headers['content-length'];
        delete headers['transfer-encoding'];
        let out = answer.body;
        const parsed = String(headers['content-type']).includes('application/json') ? parse(out) : undefined;
        if (fault === 'cache-task-status' && message?.method === 'tasks/get' && taskId) cached.set(taskId, out);
        if (fault === 'complete-only' && parsed?.result)
          out = Buffer.from(JSON.stringify({ ...parsed, result: { ...parsed.result, resultType: 'complete' } }));
        const token = (message?.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
        if (fault === 'progress-on-task' && parsed?.result?.resultType === 'task' && token !== undefined) {
          const progress = {
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { progressToken: token, progress: 0, total: 1, message: 'task working' },
          };
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
          res.write(`event: message\ndata: ${JSON.stringify(progress)}\n\n`);
          res.end(`event: message\ndata: ${out.toString()}\n\n`);
          return;
        }
        res.writeHead(answer.status, headers);
        res.end(out);
      } catch {
        res.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = new URL(upstream);
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.href,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await replica?.close();
    },
  };
}
