import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FrameSink } from '../../../src/record/frame-sink.js';
import { recordCall } from '../../../src/record/record-call.js';
import { type FetchLike, recordingFetch } from '../../../src/record/recording-fetch.js';
import { startRecordingProxy } from '../../../src/record/recording-proxy.js';
import { type ReferenceServer, startReferenceServer } from '../../../src/server/http-server.js';
import { BODY_CHANNELS, type Frame } from '../../../src/transcript/frame.js';
import { frameBytes, frameMessage } from '../../../src/transcript/frame-content.js';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(async () => {
  await server.close();
});

/** Concatenated body bytes of one exchange and direction, as the transcript has them. */
function recordedBody(frames: readonly Frame[], exchange: number, dir: Frame['dir']): Buffer {
  return Buffer.concat(
    frames.filter((f) => f.exchange === exchange && f.dir === dir && BODY_CHANNELS.has(f.channel)).map(frameBytes),
  );
}

/** A fetch that keeps a copy of every response body it hands out, read by read. */
function capturingFetch(): { fetch: FetchLike; bodies: Buffer[][] } {
  const bodies: Buffer[][] = [];
  const fetchWithCopy: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    const chunks: Buffer[] = [];
    bodies.push(chunks);
    if (!response.body) return response;
    const copy = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          chunks.push(Buffer.from(chunk));
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(copy, { status: response.status, headers: response.headers });
  };
  return { fetch: fetchWithCopy, bodies };
}

describe('recordingFetch with the SDK client', () => {
  test('records every response byte the client received, with one read frame per read', async () => {
    const inner = capturingFetch();
    const sink = new FrameSink();
    const client = new Client({ name: 'tap-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), { fetch: recordingFetch(sink, inner.fetch) }),
    );
    await client.callTool({ name: 'long_output', arguments: { blocks: 20, chars: 65536 } });
    await client.callTool({ name: 'chatty', arguments: {} });
    await client.close();
    const frames = sink.snapshot();
    const exchanges = [...new Set(frames.map((f) => f.exchange))];
    expect(exchanges.length).toBe(inner.bodies.length);
    let checked = 0;
    for (const [i, exchange] of exchanges.entries()) {
      const received = Buffer.concat(inner.bodies[i] ?? []);
      const reads = frames.filter((f) => f.exchange === exchange && f.channel === 'read' && f.dir === 'server->client');
      if (received.length === 0) continue;
      expect(recordedBody(frames, exchange, 'server->client').equals(received)).toBe(true);
      expect(reads.map((r) => r.size)).toEqual(inner.bodies[i]?.map((b) => b.length));
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(3);
    const times = frames.map((f) => f.t);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});

describe('recording proxy', () => {
  test('passes every byte through unchanged and records what it passed', async () => {
    const proxy = await startRecordingProxy({ upstream: server.url });
    try {
      const inner = capturingFetch();
      const viaProxy = await recordCall(
        proxy.url,
        { tool: 'long_output', arguments: { blocks: 5, chars: 30000 } },
        { fetch: inner.fetch },
      );
      const direct = await recordCall(server.url, { tool: 'long_output', arguments: { blocks: 5, chars: 30000 } });
      const callExchange = (frames: readonly Frame[]) =>
        frames.find((f) => frameMessage(f)?.method === 'tools/call')?.exchange ?? -1;
      const throughProxy = recordedBody(viaProxy.frames, callExchange(viaProxy.frames), 'server->client');
      const fromServer = recordedBody(direct.frames, callExchange(direct.frames), 'server->client');
      // Event ids are per session and deterministic, so the two sessions' call bodies are byte-identical.
      expect(throughProxy.equals(fromServer)).toBe(true);
      const recorded = proxy.transcript();
      const proxyExchange = callExchange(recorded.frames);
      expect(recordedBody(recorded.frames, proxyExchange, 'server->client').equals(throughProxy)).toBe(true);
      expect(recordedBody(recorded.frames, proxyExchange, 'client->server').toString()).toContain(
        '"name":"long_output"',
      );
    } finally {
      await proxy.close();
    }
  });

  test('forwards progress as it happens, not at the end', async () => {
    const proxy = await startRecordingProxy({ upstream: server.url });
    try {
      const recording = await recordCall(proxy.url, {
        tool: 'progress',
        arguments: { steps: 4, step_ms: 100 },
        progressToken: 'through-proxy',
      });
      const times = recording.frames
        .filter((f) => frameMessage(f)?.method === 'notifications/progress')
        .map((f) => f.t / 1000);
      expect(times).toHaveLength(4);
      // 100 ms apart, as sent. A stall of this (loaded) process may bunch two, not all: a proxy that
      // held them back to the end would bunch every one.
      const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
      expect((times.at(-1) as number) - (times[0] as number)).toBeGreaterThan(240);
      expect(gaps.filter((gap) => gap > 60).length).toBeGreaterThanOrEqual(2);
      const final = await proxy.close();
      const proxied = final.frames.filter((f) => frameMessage(f)?.method === 'notifications/progress');
      expect(proxied).toHaveLength(4);
      expect(final.header.protocolVersion).toBe('2025-11-25');
    } finally {
      await proxy.close().catch(() => undefined);
    }
  });

  test('answers 502 with the reason when the upstream is down', async () => {
    const down = await startReferenceServer();
    const url = down.url;
    await down.close();
    const proxy = await startRecordingProxy({ upstream: url });
    try {
      const response = await fetch(proxy.url, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(502);
      expect(await response.text()).toContain('recording proxy could not reach');
      expect(proxy.transcript().frames.some((f) => f.channel === 'end' && f.reason === 'error')).toBe(true);
    } finally {
      await proxy.close();
    }
  });
});
