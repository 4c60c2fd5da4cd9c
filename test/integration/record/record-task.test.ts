import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordCall } from '../../../src/record/record-call.js';
import { type ReferenceServer, startReferenceServer } from '../../../src/server/http-server.js';
import { writeGolden } from '../../../src/store/golden-file.js';
import type { Frame } from '../../../src/transcript/frame.js';
import { frameMessage } from '../../../src/transcript/frame-content.js';
import { readToolCall } from '../../../src/transcript/read-calls.js';
import { formatDifference } from '../../../src/verify/json-difference.js';
import { verifyGoldens } from '../../../src/verify/verify-goldens.js';
import { startEverythingHttp } from '../../support/server-everything.js';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ checkTools: true });
});
afterAll(async () => {
  await server.close();
});

/** Each request the client sent: its JSON-RPC message and the HTTP head it went with. */
function requests(frames: readonly Frame[]) {
  const heads = new Map<number, Frame>();
  for (const f of frames) if (f.channel === 'http' && f.dir === 'client->server') heads.set(f.exchange, f);
  return frames
    .filter((f) => f.dir === 'client->server' && f.channel === 'json')
    .map((f) => ({ message: frameMessage(f), head: heads.get(f.exchange) as Frame }));
}

describe('recording a task (tasks extension, 2026-07-28)', () => {
  test('declares the extension, polls tasks/get as pollIntervalMs asks, each poll its own request with Mcp-Name: <taskId>', async () => {
    const recording = await recordCall(server.url, {
      tool: 'task_steps',
      arguments: { steps: 3, step_ms: 50, poll_ms: 40 },
      progressToken: 'task-token',
      era: 'modern',
    });
    const sent = requests(recording.frames);
    const call = sent.find((r) => r.message?.method === 'tools/call');
    expect(call?.message?.params).toMatchObject({
      _meta: { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
    const created = recording.frames.map(frameMessage).find((m) => m && 'result' in m && m.id === call?.message?.id);
    const taskId = (created?.result as { taskId?: string } | undefined)?.taskId;
    expect(created?.result).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 40 });
    const polls = sent.filter((r) => r.message?.method === 'tasks/get');
    expect(polls.length).toBeGreaterThanOrEqual(2);
    expect(polls.length).toBe(recording.outcome.taskPolls);
    const ids = polls.map((p) => p.message?.id);
    expect(new Set([...ids, call?.message?.id]).size).toBe(polls.length + 1);
    for (const poll of polls) {
      expect(poll.message?.params).toMatchObject({ taskId });
      expect(poll.head.headers).toMatchObject({ 'mcp-method': 'tasks/get', 'mcp-name': taskId });
    }
    // Polls honour pollIntervalMs: 40 ms at least between one answer and the next request (timer slack: 35).
    for (let i = 1; i < polls.length; i++) {
      expect((polls[i] as { head: Frame }).head.t - (polls[i - 1] as { head: Frame }).head.t).toBeGreaterThanOrEqual(
        35_000,
      );
    }
    // The call's answer is the terminal status, with the result inlined; the reading agrees.
    expect(recording.outcome.response).toMatchObject({
      result: { status: 'completed', result: { structuredContent: { steps: 3, done: true } } },
    });
    expect(recording.outcome.progress).toEqual([]);
    const read = readToolCall(recording);
    expect(read.taskId).toBe(taskId);
    expect(read.response?.message).toEqual(recording.outcome.response);
    expect(read.cancelAtMs).toBeUndefined();
  });

  test('cancelAfter on a task sends tasks/cancel (Mcp-Name: <taskId>) and records polls until the task ends cancelled', async () => {
    const recording = await recordCall(server.url, {
      tool: 'task_steps',
      arguments: { steps: 100, step_ms: 100, poll_ms: 20, tag: 'record-task-cancel' },
      era: 'modern',
      progressToken: 'task-cancel-token',
      cancelAfter: 2,
    });
    const sent = requests(recording.frames);
    const methods = sent.map((r) => String(r.message?.method));
    const cancelAt = methods.indexOf('tasks/cancel');
    expect(methods.slice(0, 5)).toEqual(['server/discover', 'tools/list', 'tools/call', 'tasks/get', 'tasks/get']);
    expect(cancelAt).toBe(5);
    expect(methods.slice(cancelAt + 1).every((m) => m === 'tasks/get')).toBe(true);
    const taskId = (sent[cancelAt]?.message?.params as { taskId?: string } | undefined)?.taskId;
    expect(sent[cancelAt]?.head.headers).toMatchObject({ 'mcp-method': 'tasks/cancel', 'mcp-name': taskId });
    expect(recording.outcome.cancelled).toBe(true);
    expect(recording.outcome.response).toMatchObject({ result: { status: 'cancelled' } });
    const read = readToolCall(recording);
    expect(read.taskId).toBe(taskId);
    expect(read.cancelAtMs).toBeGreaterThan(0);
    expect(read.response?.message).toMatchObject({ result: { status: 'cancelled' } });
    const row = await server.audit.waitFor((e) => e.taskId === taskId && e.outcome !== 'running');
    expect(row).toMatchObject({ outcome: 'cancelled', cancelReason: 'tasks/cancel' });
  });

  test('a client call the server answers without a task records as before (no tasks/get)', async () => {
    const recording = await recordCall(server.url, { tool: 'chatty', era: 'modern' });
    expect(requests(recording.frames).map((r) => r.message?.method)).toEqual([
      'server/discover',
      'tools/list',
      'tools/call',
    ]);
    expect(readToolCall(recording).taskId).toBeUndefined();
  });
});

describe('recording a 2025-11-25 task (experimental tasks) from server-everything, a server we did not write', () => {
  test('"task" augments the call; the recorder polls tasks/get as pollInterval asks, then fetches tasks/result', async () => {
    const everything = await startEverythingHttp();
    try {
      const recording = await recordCall(everything.url, {
        tool: 'simulate-research-query',
        arguments: { topic: 'golden files' },
        task: { ttl: 60_000 },
        era: 'legacy',
      });
      const sent = requests(recording.frames);
      const call = sent.find((r) => r.message?.method === 'tools/call');
      expect(call?.message?.params).toMatchObject({ task: { ttl: 60_000 } });
      const created = recording.frames.map(frameMessage).find((m) => m && 'result' in m && m.id === call?.message?.id);
      const taskId = (created?.result as { task?: { taskId?: string } } | undefined)?.task?.taskId;
      expect(typeof taskId).toBe('string');
      const rounds = sent.filter((r) => String(r.message?.method).startsWith('tasks/'));
      const polls = rounds.filter((r) => r.message?.method === 'tasks/get');
      // Four stages of 1 s, polled every pollInterval (1000 ms): a few polls, then tasks/result.
      expect(polls.length).toBeGreaterThanOrEqual(2);
      expect(rounds.at(-1)?.message?.method).toBe('tasks/result');
      for (const round of rounds) expect(round.message?.params).toMatchObject({ taskId });
      for (let i = 1; i < polls.length; i++) {
        expect((polls[i] as { head: Frame }).head.t - (polls[i - 1] as { head: Frame }).head.t).toBeGreaterThanOrEqual(
          900_000,
        );
      }
      const text = (recording.outcome.response?.result as { content?: { text?: string }[] } | undefined)?.content?.[0]
        ?.text;
      expect(text).toContain('# Research Report: golden files');
      const read = readToolCall(recording);
      expect(read.taskId).toBe(taskId);
      expect(read.response?.message).toEqual(recording.outcome.response);
      // verify re-runs it: a new task id (in the result's related-task _meta too) is no difference.
      const dir = await mkdtemp(join(tmpdir(), 'mcp-golden-legacy-task-'));
      try {
        const golden = join(dir, 'research.jsonl');
        await writeGolden(golden, recording);
        const [verdict] = await verifyGoldens([golden], { target: everything.url });
        expect((verdict?.differences ?? []).map((d) => formatDifference(d))).toEqual([]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    } finally {
      await everything.stop();
    }
  }, 30_000);
});
