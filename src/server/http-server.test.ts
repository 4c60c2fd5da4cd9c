import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FrameSink } from '../record/frame-sink.js';
import { recordCall } from '../record/record-call.js';
import { recordingFetch } from '../record/recording-fetch.js';
import type { Frame, Transcript } from '../transcript/frame.js';
import { frameMessage, sseBlock } from '../transcript/frame-content.js';
import { NO_ACCEL_TOKEN_MARK, type ReferenceServer, startReferenceServer } from './http-server.js';
import { longOutputBlock } from './reference-tools.js';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(async () => {
  await server.close();
});

/** Server->client frames of the `tools/call` exchange that carry JSON-RPC messages. */
function callFrames(transcript: Transcript): Frame[] {
  const call = transcript.frames.find((f) => frameMessage(f)?.method === 'tools/call');
  if (!call) throw new Error('no tools/call in transcript');
  return transcript.frames.filter(
    (f) => f.dir === 'server->client' && f.exchange >= call.exchange && frameMessage(f) !== undefined,
  );
}

function progressFrames(transcript: Transcript): Frame[] {
  return callFrames(transcript).filter((f) => frameMessage(f)?.method === 'notifications/progress');
}

describe('progress tokens', () => {
  test.each([
    ['a string', 'golden-progress-1', '"progressToken":"golden-progress-1"'],
    ['zero', 0, '"progressToken":0,'],
    ['the largest safe integer', 9007199254740991, '"progressToken":9007199254740991,'],
    ['a negative integer', -42, '"progressToken":-42,'],
    ['an emoji string', '🚀 progress café', '"progressToken":"🚀 progress café"'],
    ['a numeric-looking string', '7', '"progressToken":"7"'],
  ])('echoes %s verbatim, with its JSON type, on every notification', async (_, token, wire) => {
    const recording = await recordCall(server.url, {
      tool: 'progress',
      arguments: { steps: 3, step_ms: 5 },
      progressToken: token,
    });
    const frames = progressFrames(recording);
    expect(frames).toHaveLength(3);
    for (const frame of frames) expect(frame.raw).toContain(wire);
    expect(frames.map((f) => (frameMessage(f)?.params as { progress: number } | undefined)?.progress)).toEqual([
      1, 2, 3,
    ]);
    const row = server.audit.entries().at(-1);
    expect(row?.progressToken).toBe(token);
    expect(row?.progressTokenType).toBe(typeof token);
    expect(row?.notifications.map((n) => n.message)).toEqual(['step 1/3', 'step 2/3', 'step 3/3']);
  });

  test('sends no notification when the request carries no token, and says so in the result', async () => {
    const recording = await recordCall(server.url, { tool: 'progress', arguments: { steps: 3, step_ms: 5 } });
    expect(progressFrames(recording)).toHaveLength(0);
    expect(recording.outcome.response?.result).toEqual({
      content: [{ type: 'text', text: '{"steps":3,"notified":false,"done":true}' }],
      structuredContent: { steps: 3, notified: false, done: true },
    });
    const row = server.audit.entries().at(-1);
    expect(row).toMatchObject({ progressTokenType: 'absent', notifications: [], stepsCompleted: 3, done: true });
  });
});

test('progress steps=10 step_ms=100 delivers 10 notifications spaced 60 to 250 ms apart', async () => {
  const recording = await recordCall(server.url, {
    tool: 'progress',
    arguments: { steps: 10, step_ms: 100 },
    progressToken: 'spacing',
  });
  const times = progressFrames(recording).map((f) => f.t / 1000);
  expect(times).toHaveLength(10);
  const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
  for (const gap of gaps) {
    expect(gap).toBeGreaterThanOrEqual(60);
    expect(gap).toBeLessThanOrEqual(250);
  }
});

test('long_output 50 x 65536 delivers exactly 50 blocks of exactly 65536 characters, in order', async () => {
  const recording = await recordCall(server.url, { tool: 'long_output', arguments: { blocks: 50, chars: 65536 } });
  const content =
    (recording.outcome.response?.result as { content: { type: string; text: string }[] } | undefined)?.content ?? [];
  expect(content).toHaveLength(50);
  content.forEach((block, n) => {
    expect(block.type).toBe('text');
    expect(block.text.length).toBe(65536);
    expect(block.text.startsWith(`[block ${n}] abcdefghij`)).toBe(true);
    expect(block.text).toBe(longOutputBlock(n, 65536));
  });
});

test('chatty answers byte-identical SSE across sessions', async () => {
  const bodies: string[] = [];
  for (let run = 0; run < 3; run++) {
    const recording = await recordCall(server.url, { tool: 'chatty' });
    bodies.push(
      callFrames(recording)
        .map((f) => f.raw)
        .join(''),
    );
  }
  expect(bodies[0]).toContain('fourth block: unicode; café résumé naïve');
  expect(bodies[1]).toBe(bodies[0]);
  expect(bodies[2]).toBe(bodies[0]);
});

test('cancel after step 3 stops the call: no result, nothing after the cancel, audit done=false steps=3', async () => {
  const recording = await recordCall(server.url, {
    tool: 'progress',
    arguments: { steps: 10, step_ms: 200 },
    progressToken: 'cancel-me',
    cancelAfter: 3,
  });
  expect(recording.outcome.progress).toHaveLength(3);
  expect(recording.outcome.response).toBeUndefined();
  expect(recording.outcome.afterCancel).toEqual([]);
  const row = await server.audit.waitFor((e) => e.progressToken === 'cancel-me' && e.outcome !== 'running');
  expect(row).toMatchObject({
    done: false,
    cancelled: true,
    outcome: 'cancelled',
    stepsCompleted: 3,
    cancelReason: 'mcp-golden: cancel after progress 3',
  });
  expect(row.notifications).toHaveLength(3);
  // The cancellation arrives during step 3's sleep of 200 ms and ends the call at once, not at the
  // sleep's end (half a step leaves room for a loaded machine's stall).
  expect(row.durationMs).toBeLessThan((row.cancelledAtMs ?? 0) + 100);
  await new Promise((resolve) => setTimeout(resolve, 250));
  expect(server.audit.entries().find((e) => e.seq === row.seq)?.notifications).toHaveLength(3);
});

test('Last-Event-ID resume after a dropped stream yields every missed event exactly once', async () => {
  const recording = await recordCall(server.url, {
    tool: 'progress',
    arguments: { steps: 6, step_ms: 60 },
    progressToken: 'resume-me',
    dropAfter: 2,
  });
  expect(recording.outcome.resumed).toBe(true);
  expect(recording.outcome.progress.map((m) => (m.params as { progress: number }).progress)).toEqual([
    1, 2, 3, 4, 5, 6,
  ]);
  expect(recording.outcome.response).toBeDefined();
  const resumeGet = recording.frames.find((f) => f.method === 'GET');
  expect(resumeGet?.headers?.['last-event-id']).toMatch(/^\d+-\d+$/);
  const ids = recording.frames.flatMap((f) => (f.channel === 'sse' ? [sseBlock(f)?.id] : [])).filter(Boolean);
  expect(new Set(ids).size).toBe(ids.length);
  const row = server.audit.entries().find((e) => e.progressToken === 'resume-me');
  expect(row).toMatchObject({ done: true, cancelled: false, stepsCompleted: 6 });
});

test('the audit log is readable over the wire with the SDK client', async () => {
  const client = new Client({ name: 'audit-reader', version: '1.0.0' });
  const sink = new FrameSink();
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { fetch: recordingFetch(sink) }));
  const seen: number[] = [];
  await client.callTool({ name: 'progress', arguments: { steps: 2, step_ms: 5 } }, undefined, {
    onprogress: (p) => seen.push(p.progress),
  });
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(['progress', 'long_output', 'chatty', 'audit_log']);
  const audit = await client.callTool({ name: 'audit_log', arguments: {} });
  const entries = (audit.structuredContent as { entries: { tool: string; progressTokenType: string }[] }).entries;
  expect(entries.at(-1)).toMatchObject({ tool: 'progress', progressTokenType: 'number' });
  expect(entries.some((e) => e.tool === 'audit_log')).toBe(false);
  const resource = await client.readResource({ uri: 'mcp-golden://audit-log' });
  expect(JSON.parse((resource.contents[0] as { text: string }).text).entries.length).toBe(entries.length);
  await client.close();
  expect(sink.snapshot().some((f) => f.channel === 'sse')).toBe(true);
});

describe('HTTP edge cases', () => {
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });

  test('answers an unknown session with 404 and a JSON-RPC error', async () => {
    const response = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-session-id': 'nope' });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: -32001 } });
  });

  test('answers a first request that is not initialize with 400 and keeps no session for it', async () => {
    const before = server.sessions().length;
    const response = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(response.status).toBe(400);
    await response.arrayBuffer();
    expect(server.sessions().length).toBe(before);
  });

  test('serves only /mcp', async () => {
    const response = await fetch(server.url.replace('/mcp', '/other'));
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('/mcp');
  });
});

describe('server switches', () => {
  test('sends X-Accel-Buffering: no by default and omits it when asked', async () => {
    const withHeader = await recordCall(server.url, { tool: 'chatty' });
    const plain = await startReferenceServer({ accelHeader: false });
    try {
      const without = await recordCall(plain.url, { tool: 'chatty' });
      const sseHeads = (t: Transcript) =>
        t.frames.filter((f) => f.channel === 'http' && f.headers?.['content-type'] === 'text/event-stream');
      expect(sseHeads(withHeader).every((f) => f.headers?.['x-accel-buffering'] === 'no')).toBe(true);
      expect(sseHeads(without).length).toBeGreaterThan(0);
      expect(sseHeads(without).some((f) => f.headers && 'x-accel-buffering' in f.headers)).toBe(false);
    } finally {
      await plain.close();
    }
  });

  test('with --check-tools, omits X-Accel-Buffering only on the response of a call whose token asks it to', async () => {
    const check = await startReferenceServer({ checkTools: true });
    try {
      const sseHeads = (t: Transcript) =>
        t.frames.filter((f) => f.channel === 'http' && f.headers?.['content-type'] === 'text/event-stream');
      const plain = await recordCall(check.url, {
        tool: 'progress',
        arguments: { steps: 1, step_ms: 1 },
        progressToken: 'p',
      });
      const asked = await recordCall(check.url, {
        tool: 'progress',
        arguments: { steps: 1, step_ms: 1 },
        progressToken: `spacing-${NO_ACCEL_TOKEN_MARK}`,
      });
      expect(sseHeads(plain).every((f) => f.headers?.['x-accel-buffering'] === 'no')).toBe(true);
      const [initialize, ...calls] = sseHeads(asked);
      // initialize carries no token: it keeps the header.
      expect(initialize?.headers?.['x-accel-buffering']).toBe('no');
      expect(calls.length).toBeGreaterThan(0);
      // Only the call's own response omits it (a standalone GET stream keeps it).
      expect(calls.filter((f) => !(f.headers && 'x-accel-buffering' in f.headers))).toHaveLength(1);
      expect(asked.outcome.progress).toHaveLength(1);
      // A body that is not JSON still gets the JSON-RPC parse error.
      const bad = await fetch(check.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{not json',
      });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(-32700);
    } finally {
      await check.close();
    }
  });

  test('writes keep-alive comments when enabled', async () => {
    const chatty = await startReferenceServer({ keepAliveMs: 40 });
    try {
      const recording = await recordCall(chatty.url, {
        tool: 'progress',
        arguments: { steps: 2, step_ms: 150 },
        progressToken: 'k',
      });
      const comments = recording.frames.filter(
        (f) => f.channel === 'sse' && sseBlock(f)?.comments.includes(' keepalive'),
      );
      expect(comments.length).toBeGreaterThan(0);
      expect(recording.outcome.progress).toHaveLength(2);
    } finally {
      await chatty.close();
    }
  });

  test('JSON-response mode answers with one JSON body and no progress', async () => {
    const json = await startReferenceServer({ jsonResponse: true });
    try {
      const recording = await recordCall(json.url, {
        tool: 'progress',
        arguments: { steps: 3, step_ms: 5 },
        progressToken: 'json',
      });
      expect(recording.frames.some((f) => f.channel === 'sse')).toBe(false);
      const bodies = recording.frames.filter((f) => f.channel === 'json' && f.dir === 'server->client');
      expect(bodies.map((f) => frameMessage(f)?.id)).toEqual([0, 2, 3, 4, 1]);
      expect(recording.outcome.progress).toHaveLength(0);
      expect(json.audit.entries()[0]?.progressTokenType).toBe('string');
    } finally {
      await json.close();
    }
  });
});
