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
 *   for long calls);
 * - `map-task-ids`: hands the client its own id for each task (`gw-<upstream id>`) and maps it back on
 *   every `tasks/*` request, body and `Mcp-Name`: a faithful gateway that keeps its own task table;
 * - `task-to-result`: follows a task itself (`tasks/get` to its end) and answers the client's call with
 *   the task's result as a plain `complete` result: the client never sees a task.
 */
export type TaskFault =
  | 'none'
  | 'complete-only'
  | 'replica-round-robin'
  | 'cache-task-status'
  | 'progress-on-task'
  | 'map-task-ids'
  | 'task-to-result';

const GATEWAY_TASK = 'gw-';

/** Follows the upstream's task `taskId` with `tasks/get` as a client would (the call's own headers and envelope) until it ends; its last answer. */
async function followTask(
  to: URL,
  req: { url?: string | undefined; headers: IncomingHttpHeaders },
  call: Message,
  taskId: string,
) {
  for (let poll = 1; ; poll++) {
    const body = Buffer.from(
      JSON.stringify({
        jsonrpc: '2.0',
        id: `gateway-poll-${poll}`,
        method: 'tasks/get',
        params: { taskId, _meta: call.params?._meta },
      }),
    );
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([name]) => !name.startsWith('mcp-param-')),
    ) as IncomingHttpHeaders;
    const answer = parse(
      (
        await forward(
          to,
          'POST',
          req.url ?? '/mcp',
          { ...headers, 'mcp-method': 'tasks/get', 'mcp-name': taskId },
          body,
        )
      ).body,
    );
    const status = answer?.result?.status;
    if (status !== 'working' && status !== 'input_required') return answer;
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

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
      let body = Buffer.concat(chunks);
      let message = parse(body);
      if (fault === 'map-task-ids' && typeof message?.params?.taskId === 'string') {
        // The client's id back to the upstream's, in the body and in Mcp-Name.
        const upstreamId = message.params.taskId.replace(GATEWAY_TASK, '');
        message = { ...message, params: { ...message.params, taskId: upstreamId } };
        body = Buffer.from(JSON.stringify(message));
        req.headers['mcp-name'] = upstreamId;
      }
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
        if (fault === 'map-task-ids' && typeof parsed?.result?.taskId === 'string')
          out = Buffer.from(
            JSON.stringify({
              ...parsed,
              result: { ...parsed.result, taskId: `${GATEWAY_TASK}${parsed.result.taskId}` },
            }),
          );
        if (fault === 'task-to-result' && parsed?.result?.resultType === 'task' && message) {
          const ended = await followTask(to, req, message, String(parsed.result.taskId));
          const inner = (ended?.result?.result ?? {}) as Record<string, unknown>;
          out = Buffer.from(
            JSON.stringify({ jsonrpc: '2.0', id: parsed.id, result: { ...inner, resultType: 'complete' } }),
          );
        }
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
