import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { JsonRpcMessage } from '../transcript/frame-content.js';
import { modernHeaders } from '../transcript/modern-envelope.js';
import { type ReferenceServer, startReferenceServer } from './http-server.js';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ checkTools: true });
});
afterAll(async () => {
  await server.close();
});

const TASKS = { 'io.modelcontextprotocol/tasks': {} };

/** A 2026-07-28 request: the envelope (the tasks extension declared unless `extensions` says otherwise). */
function modern(id: number, method: string, params: Record<string, unknown>, extensions: object = TASKS) {
  return {
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': { extensions },
        ...(params._meta as object),
      },
    },
  };
}

async function post(
  body: { method: string; params: Record<string, unknown> },
  headers: Record<string, string> = {},
): Promise<{ status: number; json: { result?: Record<string, unknown>; error?: Record<string, unknown> } }> {
  const name = body.params.taskId ?? body.params.name;
  const response = await fetch(server.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': body.method,
      ...(typeof name === 'string' && { 'mcp-name': name }),
      // The check tools mark `tag` x-mcp-header: a conforming client sends it as Mcp-Param-Tag.
      ...modernHeaders(body as JsonRpcMessage, { tag: 'Tag' }),
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

async function createTask(args: Record<string, unknown>, id = 1) {
  const created = await post(
    modern(id, 'tools/call', { name: 'task_steps', arguments: args, _meta: { progressToken: 't-1' } }),
  );
  expect(created.status).toBe(200);
  return created.json.result as Record<string, unknown> & { taskId: string; pollIntervalMs: number };
}

async function pollUntilTerminal(taskId: string, pollMs: number) {
  const seen: Record<string, unknown>[] = [];
  for (let id = 100; id < 400; id++) {
    const answer = await post(modern(id, 'tasks/get', { taskId }));
    expect(answer.status).toBe(200);
    const result = answer.json.result as Record<string, unknown>;
    seen.push(result);
    if (['completed', 'failed', 'cancelled'].includes(String(result.status))) return seen;
    await sleep(pollMs);
  }
  throw new Error(`task ${taskId} never ended: ${JSON.stringify(seen.at(-1))}`);
}

describe('serve: the tasks extension (io.modelcontextprotocol/tasks, 2026-07-28)', () => {
  test('server/discover declares the extension', async () => {
    const answer = await post(modern(1, 'server/discover', {}));
    expect(answer.json.result?.capabilities).toMatchObject({ extensions: TASKS });
  });

  test('task_steps answers resultType "task" at once, runs in the background, and tasks/get inlines the result', async () => {
    const started = Date.now();
    const created = await createTask({ steps: 3, step_ms: 60, poll_ms: 30, tag: 'task-a' });
    expect(Date.now() - started).toBeLessThan(150 + 3 * 60);
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 300_000, pollIntervalMs: 30 });
    expect(created.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(String(created.createdAt))).not.toBeNaN();
    const polls = await pollUntilTerminal(created.taskId, created.pollIntervalMs);
    expect(polls.length).toBeGreaterThan(1);
    expect(polls[0]).toMatchObject({ resultType: 'complete', taskId: created.taskId, status: 'working' });
    expect(polls.at(-1)).toMatchObject({
      resultType: 'complete',
      status: 'completed',
      result: { structuredContent: { steps: 3, notified: false, done: true } },
    });
    // The work is one audit row: no progress (none on tasks), every tasks/get with the Mcp-Name it carried.
    const row = await server.audit.waitFor((e) => e.taskId === created.taskId && e.outcome === 'result');
    expect(row).toMatchObject({ tool: 'task_steps', progressToken: 't-1', notifications: [], stepsCompleted: 3 });
    expect(row.mcpHeaders?.['mcp-name']).toBe('task_steps');
    const gets = server.audit.entries().find((e) => e.taskId === created.taskId)?.taskRequests ?? [];
    expect(gets).toHaveLength(polls.length);
    expect(gets.every((g) => g.method === 'tasks/get' && g.mcpName === created.taskId)).toBe(true);
  });

  test('tasks/cancel is acknowledged and stops the work: the task ends cancelled, its audit row says why', async () => {
    const created = await createTask({ steps: 50, step_ms: 100, poll_ms: 20, tag: 'task-cancel' });
    await sleep(120);
    const ack = await post(modern(50, 'tasks/cancel', { taskId: created.taskId }));
    expect(ack.json).toMatchObject({ result: { resultType: 'complete' } });
    const polls = await pollUntilTerminal(created.taskId, 20);
    expect(polls.at(-1)).toMatchObject({ status: 'cancelled' });
    expect(polls.at(-1)).not.toHaveProperty('result');
    const row = await server.audit.waitFor((e) => e.taskId === created.taskId && e.outcome !== 'running');
    expect(row).toMatchObject({ outcome: 'cancelled', cancelled: true, cancelReason: 'tasks/cancel', done: false });
    expect(row.stepsCompleted).toBeLessThan(50);
    expect(row.taskRequests?.[0]).toMatchObject({ method: 'tasks/cancel', mcpName: created.taskId });
  });

  test('tasks/* needs Mcp-Name: <taskId>: a missing or different one is 400 with -32020', async () => {
    const created = await createTask({ steps: 1, step_ms: 1 });
    const missing = await post(modern(60, 'tasks/get', { taskId: created.taskId }), { 'mcp-name': '' });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toMatchObject({ code: -32020 });
    const other = await post(modern(61, 'tasks/cancel', { taskId: created.taskId }), { 'mcp-name': 'another-task' });
    expect(other.status).toBe(400);
    expect(other.json.error?.message).toContain('Mcp-Name');
  });

  test('a client without the extension gets the plain result, and -32021 on tasks/*; an unknown task is -32602', async () => {
    const plain = await post(modern(70, 'tools/call', { name: 'task_steps', arguments: { steps: 2, step_ms: 5 } }, {}));
    expect(plain.json.result).toMatchObject({ resultType: 'complete', structuredContent: { steps: 2, done: true } });
    const refused = await post(modern(71, 'tasks/get', { taskId: 'x' }, {}));
    expect(refused.json.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: TASKS } },
    });
    const unknown = await post(modern(72, 'tasks/get', { taskId: 'no-such-task' }));
    expect(unknown.json.error).toMatchObject({ code: -32602 });
  });

  test('bad arguments are invalid params and create no task', async () => {
    const bad = await post(modern(80, 'tools/call', { name: 'task_steps', arguments: { steps: 0 } }));
    expect(bad.json.error).toMatchObject({ code: -32602 });
    expect(String(bad.json.error?.message)).toContain('"steps"');
  });
});
