import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordCall } from '../../../src/record/record-call.js';
import { startRecordingProxy } from '../../../src/record/recording-proxy.js';
import type { Frame } from '../../../src/transcript/frame.js';
import { frameMessage } from '../../../src/transcript/frame-content.js';
import { formatTimeline } from '../../../src/transcript/timeline.js';
import { type SdkV2Server, startSdkV2Server } from '../../support/sdk-v2-server.js';
import { startEverythingHttp } from '../../support/server-everything.js';

const requests = (frames: readonly Frame[]) => frames.filter((f) => f.channel === 'http' && f.dir === 'client->server');
const methods = (frames: readonly Frame[]) =>
  frames.filter((f) => f.dir === 'client->server' && f.channel === 'json').map((f) => String(frameMessage(f)?.method));

const STDIO_FIXTURE = fileURLToPath(new URL('../../support/sdk-v2-stdio-server.mjs', import.meta.url));

let modernOnly: SdkV2Server;
let dualEra: SdkV2Server;
beforeAll(async () => {
  [modernOnly, dualEra] = await Promise.all([
    startSdkV2Server({ legacy: 'reject' }),
    startSdkV2Server({ legacy: 'stateless' }),
  ]);
});
afterAll(async () => {
  await Promise.all([modernOnly.close(), dualEra.close()]);
});

describe('recordCall in the modern era (SDK v2 servers, 2026-07-28)', () => {
  test('records server/discover, tools/list and a progress call with the envelope and Mcp-* headers, no session', async () => {
    const recording = await recordCall(modernOnly.url, {
      tool: 'progress',
      arguments: { steps: 3, step_ms: 20 },
      progressToken: 'p-1',
      era: 'modern',
    });
    expect(recording.header.era).toBe('modern');
    expect(recording.header.protocolVersion).toBe('2026-07-28');
    expect(methods(recording.frames)).toEqual(['server/discover', 'tools/list', 'tools/call']);
    const heads = requests(recording.frames);
    expect(heads.map((h) => h.method)).toEqual(['POST', 'POST', 'POST']);
    expect(heads.map((h) => h.headers?.['mcp-method'])).toEqual(['server/discover', 'tools/list', 'tools/call']);
    expect(heads[2]?.headers?.['mcp-name']).toBe('progress');
    expect(heads.every((h) => h.headers?.['mcp-protocol-version'] === '2026-07-28')).toBe(true);
    expect(heads.some((h) => h.headers?.['mcp-session-id'] !== undefined)).toBe(false);
    const call = recording.frames.map(frameMessage).find((m) => m?.method === 'tools/call');
    expect(call?.params).toMatchObject({
      _meta: {
        progressToken: 'p-1',
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'mcp-golden' },
      },
    });
    expect(recording.outcome.progress).toHaveLength(3);
    expect(recording.outcome.response).toMatchObject({ result: { resultType: 'complete' } });
    expect(formatTimeline(recording)[0]).toContain('protocol 2026-07-28 (modern era)');
  });

  test('answers an input_required round from "answers": the retry has a new id, the answers and the request state', async () => {
    const recording = await recordCall(modernOnly.url, {
      tool: 'confirm',
      era: 'modern',
      requestId: 7,
      answers: { 'elicitation/create': { action: 'accept', content: { ok: true } } },
    });
    const calls = recording.frames.map(frameMessage).filter((m) => m?.method === 'tools/call' && 'id' in m) as {
      id: unknown;
      params: Record<string, unknown>;
    }[];
    expect(calls.map((c) => c.id)).toEqual([7, 3]);
    expect(calls[1]?.params).toMatchObject({
      inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
      requestState: 'round-1',
    });
    expect(recording.outcome.inputRounds).toBe(1);
    expect(recording.header.notes?.inputRounds).toBe(1);
    expect(JSON.stringify(recording.outcome.response)).toContain('confirmed: {\\"ok\\":true}');
    expect(modernOnly.calls.at(-1)).toMatchObject({
      tool: 'confirm',
      inputResponses: { confirm: { action: 'accept' } },
    });
  });

  test('without an answer the envelope declares no elicitation capability, and the server refuses with -32021', async () => {
    await expect(recordCall(modernOnly.url, { tool: 'confirm', era: 'modern' })).rejects.toThrow(
      /HTTP 400: .*-32021.*elicitation\/create/,
    );
  });

  test('cancelAfter closes the stream: the golden holds a close frame and the handler sees its abort signal', async () => {
    const before = modernOnly.calls.length;
    const recording = await recordCall(modernOnly.url, {
      tool: 'progress',
      arguments: { steps: 50, step_ms: 40 },
      progressToken: 7,
      cancelAfter: 2,
      era: 'modern',
    });
    const close = recording.frames.find((f) => f.channel === 'close');
    expect(close).toMatchObject({ dir: 'client->server', exchange: 3 });
    expect(recording.outcome.cancelled).toBe(true);
    expect(recording.outcome.response).toBeUndefined();
    // No notifications/cancelled: over HTTP the modern era cancels by closing the stream.
    expect(methods(recording.frames)).not.toContain('notifications/cancelled');
    for (let i = 0; i < 100 && modernOnly.calls.length === before; i++) await new Promise((r) => setTimeout(r, 20));
    const seen = modernOnly.calls.at(-1);
    expect(seen).toMatchObject({ tool: 'progress', aborted: true });
    expect(seen?.steps).toBeLessThan(10);
  });

  test('dropAfter closes the stream and re-issues the call with a new id: both exchanges are in the golden', async () => {
    const recording = await recordCall(modernOnly.url, {
      tool: 'progress',
      arguments: { steps: 3, step_ms: 30 },
      progressToken: 'd',
      dropAfter: 1,
      era: 'modern',
    });
    const calls = recording.frames
      .filter((f) => f.dir === 'client->server' && f.channel === 'json')
      .map((f) => ({ exchange: f.exchange, message: frameMessage(f) }))
      .filter((c) => c.message?.method === 'tools/call');
    expect(calls.map((c) => c.message?.id)).toEqual([1, 3]);
    const close = recording.frames.find((f) => f.channel === 'close');
    expect(close?.exchange).toBe(calls[0]?.exchange);
    expect(recording.outcome.resumed).toBe(true);
    expect(recording.outcome.progress).toHaveLength(4);
    expect(recording.outcome.response).toMatchObject({ id: 3, result: { resultType: 'complete' } });
  });

  test('the recording proxy between the SDK v2 client and a modern server records the modern era and the client closing its stream', async () => {
    const proxy = await startRecordingProxy({ upstream: modernOnly.url });
    const client = new Client({ name: 'v2', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const before = modernOnly.calls.length;
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
      const aborter = new AbortController();
      const call = client.callTool(
        { name: 'progress', arguments: { steps: 50, step_ms: 40 } },
        { signal: aborter.signal, onprogress: () => aborter.abort() },
      );
      await expect(call).rejects.toThrow();
    } finally {
      await client.close();
    }
    for (let i = 0; i < 100 && modernOnly.calls.length === before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(modernOnly.calls.at(-1)).toMatchObject({ tool: 'progress', aborted: true });
    const transcript = await proxy.close();
    expect(transcript.header).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
    const close = transcript.frames.find((f) => f.channel === 'close');
    const callExchange = transcript.frames.find(
      (f) => f.dir === 'client->server' && f.channel === 'json' && frameMessage(f)?.method === 'tools/call',
    )?.exchange;
    expect(close?.exchange).toBe(callExchange);
  });

  test('over stdio (SDK v2 serveStdio, modern-only) the modern era records server/discover and the envelope, and cancels with notifications/cancelled', async () => {
    const server = { command: process.execPath, args: [STDIO_FIXTURE] };
    const full = await recordCall(server, {
      tool: 'progress',
      arguments: { steps: 2, step_ms: 10 },
      progressToken: 's',
      era: 'modern',
    });
    expect(full.header).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28', transport: 'stdio' });
    expect(methods(full.frames.map((f) => (f.channel === 'stdio' ? { ...f, channel: 'json' as const } : f)))).toEqual([
      'server/discover',
      'tools/list',
      'tools/call',
    ]);
    expect(full.outcome.progress).toHaveLength(2);
    expect(full.outcome.response).toMatchObject({ result: { resultType: 'complete' } });
    const cancelled = await recordCall(server, {
      tool: 'progress',
      arguments: { steps: 50, step_ms: 40 },
      progressToken: 'c',
      cancelAfter: 1,
      era: 'modern',
    });
    expect(cancelled.outcome.cancelled).toBe(true);
    expect(cancelled.frames.some((f) => f.raw?.includes('"notifications/cancelled"'))).toBe(true);
  });

  test('era auto records a dual-era SDK v2 server in the modern era, with one server/discover', async () => {
    const recording = await recordCall(dualEra.url, {
      tool: 'progress',
      arguments: { steps: 2, step_ms: 10 },
      era: 'auto',
    });
    expect(recording.header.era).toBe('modern');
    expect(recording.header.protocolVersion).toBe('2026-07-28');
    expect(methods(recording.frames)).toEqual(['server/discover', 'tools/list', 'tools/call']);
  });

  test('era auto falls back to a 2025 session on a legacy server (server-everything) and leaves the probe out of the golden', async () => {
    const everything = await startEverythingHttp();
    try {
      const recording = await recordCall(everything.url, { tool: 'echo', arguments: { message: 'hi' }, era: 'auto' });
      expect(recording.header.era).toBe('legacy');
      expect(recording.header.protocolVersion).toBe('2025-11-25');
      expect(methods(recording.frames)).toEqual([
        'initialize',
        'notifications/initialized',
        'tools/list',
        // The lists server-everything advertises, as a client lists them (issue 35).
        'resources/list',
        'resources/templates/list',
        'prompts/list',
        'tools/call',
      ]);
      expect(recording.frames[0]).toMatchObject({ exchange: 1, channel: 'http', method: 'POST' });
      expect(String(recording.header.notes?.eraProbe)).toMatch(/^era auto: .*recorded in the legacy era$/);
    } finally {
      await everything.stop();
    }
  });

  test('era modern against a legacy server fails naming server/discover and the --era fix', async () => {
    const everything = await startEverythingHttp();
    try {
      await expect(recordCall(everything.url, { tool: 'echo', era: 'modern' })).rejects.toThrow(
        /in the modern era \(2026-07-28\) failed: .*Expected server\/discover to offer 2026-07-28.*--era legacy/,
      );
    } finally {
      await everything.stop();
    }
  });

  test('a modern-only server refuses the legacy era with -32022, so era legacy fails at initialize, naming the fix', async () => {
    const refused = recordCall(modernOnly.url, { tool: 'progress', era: 'legacy' });
    await expect(refused).rejects.toThrow(/-32022/);
    await expect(refused).rejects.toThrow(/speaks only 2026-07-28.*--era modern/);
  });
});
