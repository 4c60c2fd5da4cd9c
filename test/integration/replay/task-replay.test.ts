import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordCall } from '../../../src/record/record-call.js';
import { createReplayServer, type ReplayServer } from '../../../src/replay/replay-server.js';
import { type ReferenceServer, startReferenceServer } from '../../../src/server/http-server.js';
import type { Transcript } from '../../../src/transcript/frame.js';
import { frameMessage } from '../../../src/transcript/frame-content.js';
import { compareSessions } from '../../../src/verify/compare-session.js';

let server: ReferenceServer;
let task: Transcript;
let cancelledTask: Transcript;
let chatty: Transcript;
const TASK_SCENARIO = { tool: 'task_steps', arguments: { steps: 3, step_ms: 40, poll_ms: 25 }, era: 'modern' } as const;

beforeAll(async () => {
  server = await startReferenceServer({ checkTools: true });
  task = await recordCall(server.url, { name: 'task', ...TASK_SCENARIO });
  cancelledTask = await recordCall(server.url, {
    name: 'task-cancel',
    tool: 'task_steps',
    arguments: { steps: 100, step_ms: 50, poll_ms: 20 },
    era: 'modern',
    progressToken: 'c',
    cancelAfter: 1,
  });
  chatty = await recordCall(server.url, { name: 'chatty', tool: 'chatty', era: 'modern' });
});
afterAll(async () => {
  await server.close();
});

async function withReplay<T>(goldens: Transcript[], run: (replay: ReplayServer) => Promise<T>): Promise<T> {
  const replay = await createReplayServer(goldens, { pace: 'instant' });
  try {
    return await run(replay);
  } finally {
    await replay.close();
  }
}

const TASKS = { 'io.modelcontextprotocol/tasks': {} };

async function send(
  url: string,
  id: number,
  method: string,
  params: Record<string, unknown>,
  options: { extensions?: object; mcpName?: string } = {},
): Promise<{ status: number; json: { result?: Record<string, unknown>; error?: Record<string, unknown> } }> {
  const body = {
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': { extensions: options.extensions ?? TASKS },
      },
    },
  };
  const name = options.mcpName ?? params.taskId ?? params.name;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof name === 'string' && { 'mcp-name': name }),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

/** The statuses the golden's tasks/get answers carry, in order. */
function recordedStatuses(golden: Transcript): string[] {
  const polls = new Set(
    golden.frames
      .filter((f) => f.dir === 'client->server' && frameMessage(f)?.method === 'tasks/get')
      .map((f) => frameMessage(f)?.id),
  );
  return golden.frames
    .filter((f) => f.dir === 'server->client')
    .map(frameMessage)
    .filter((m) => m && 'result' in m && polls.has(m.id))
    .map((m) => String((m?.result as { status?: unknown } | undefined)?.status));
}

describe('replaying a task golden (tasks extension, 2026-07-28)', () => {
  test('the call gets the recorded task; each tasks/get the recorded polls in order, extra polls the terminal state', async () => {
    const statuses = recordedStatuses(task);
    expect(statuses.at(-1)).toBe('completed');
    await withReplay([task], async (replay) => {
      const created = await send(replay.url, 1, 'tools/call', {
        name: 'task_steps',
        arguments: TASK_SCENARIO.arguments,
      });
      expect(created.json.result).toMatchObject({ resultType: 'task', status: 'working' });
      const taskId = String(created.json.result?.taskId);
      const served: string[] = [];
      for (let i = 0; i < statuses.length + 2; i++) {
        const poll = await send(replay.url, 10 + i, 'tasks/get', { taskId });
        expect(poll.status).toBe(200);
        expect(poll.json.result).toMatchObject({ taskId, resultType: 'complete' });
        served.push(String(poll.json.result?.status));
      }
      expect(served).toEqual([...statuses, 'completed', 'completed']);
      // The call served again starts the task's polls over.
      await send(replay.url, 30, 'tools/call', { name: 'task_steps', arguments: TASK_SCENARIO.arguments });
      const again = await send(replay.url, 31, 'tasks/get', { taskId });
      expect(again.json.result?.status).toBe(statuses[0]);
      // Mcp-Name must name the task.
      const wrong = await send(replay.url, 32, 'tasks/get', { taskId }, { mcpName: 'another-task' });
      expect(wrong.status).toBe(400);
      expect(wrong.json.error).toMatchObject({ code: -32020 });
    });
  });

  test('tasks/cancel is answered from the recording, and the polls after it end cancelled', async () => {
    const statuses = recordedStatuses(cancelledTask);
    expect(statuses.at(-1)).toBe('cancelled');
    await withReplay([cancelledTask], async (replay) => {
      const created = await send(replay.url, 1, 'tools/call', {
        name: 'task_steps',
        arguments: { steps: 100, step_ms: 50, poll_ms: 20 },
      });
      const taskId = String(created.json.result?.taskId);
      const served: string[] = [];
      for (let i = 0; i < statuses.length; i++) {
        if (i === 1) {
          const ack = await send(replay.url, 5, 'tasks/cancel', { taskId });
          expect(ack.json.result).toMatchObject({ resultType: 'complete' });
        }
        served.push(String((await send(replay.url, 10 + i, 'tasks/get', { taskId })).json.result?.status));
      }
      expect(served).toEqual(statuses);
    });
  });

  test('a client that does not declare the extension gets -32021 for a call recorded as a task, not the task', async () => {
    await withReplay([task], async (replay) => {
      const refused = await send(
        replay.url,
        1,
        'tools/call',
        { name: 'task_steps', arguments: TASK_SCENARIO.arguments },
        { extensions: {} },
      );
      expect(refused.json.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: TASKS } } });
    });
  });

  test('the SDK v2 client pinned to 2026-07-28 is served its other calls from a directory holding a task golden', async () => {
    await withReplay([task, cancelledTask, chatty], async (replay) => {
      const client = new ClientV2(
        { name: 'v2', version: '1' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(new TransportV2(new URL(replay.url)));
      try {
        const tools = await client.listTools();
        expect(tools.tools.map((t) => t.name)).toContain('task_steps');
        const result = await client.callTool({ name: 'chatty', arguments: {} });
        expect((result.content as { text: string }[]).map((c) => c.text)[0]).toBe('first block: short');
      } finally {
        await client.close();
      }
    });
  });

  test('verify: a live re-run of the task compares equal (task id and times aside); a changed result differs', async () => {
    const again = await recordCall(server.url, { name: 'task', ...TASK_SCENARIO });
    const same = compareSessions(task, again);
    expect(same.differences).toEqual([]);
    expect(same.pass).toBe(true);
    const changed = await recordCall(server.url, {
      name: 'task',
      ...TASK_SCENARIO,
      arguments: { ...TASK_SCENARIO.arguments, steps: 2 },
    });
    const verdict = compareSessions(task, changed);
    expect(verdict.pass).toBe(false);
    expect(verdict.differences.map((d) => d.path).join(' ')).toContain('steps');
  });
});
