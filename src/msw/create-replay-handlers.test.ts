import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordCall } from '../record/record-call.js';
import { scenarioOfGolden } from '../record/scenario-of-golden.js';
import { readGolden } from '../store/golden-file.js';
import { canonicalJson } from '../transcript/canonical-json.js';
import type { Transcript } from '../transcript/frame.js';
import { frameMessage } from '../transcript/frame-content.js';
import { semanticFrames } from '../transcript/semantic-view.js';
import { createReplayHandlers } from './create-replay-handlers.js';

const GOLDENS = fileURLToPath(new URL('../../goldens', import.meta.url));
const goldens: Transcript[] = [];
for (const file of (await readdir(GOLDENS)).filter((f) => f.endsWith('.jsonl')).sort()) {
  const golden = await readGolden(join(GOLDENS, file));
  if (golden.header.transport === 'http') goldens.push(golden);
}

/** The SSE `id:` of a frame, if it has one. */
const eventIdOf = (raw: string | undefined): string | undefined => /^id: (.*)$/m.exec(raw ?? '')?.[1];

/**
 * The transcript without the events a dropped stream carried past the client's drop and that the
 * resumed stream delivered again (the same SSE id later on). On a loaded machine the next progress
 * can arrive in the same read as the one the client drops after: the wire then holds it twice, the
 * client's reading once. What is compared is what the client read.
 */
function withoutRedelivered(transcript: Transcript): Transcript {
  const later = new Map<string, number>();
  transcript.frames.forEach((f, i) => {
    const id = f.channel === 'sse' ? eventIdOf(f.raw) : undefined;
    if (id !== undefined) later.set(id, i);
  });
  // Only on a stream the client dropped: a replay that sends one event on two live streams still differs.
  const dropped = new Set(
    transcript.frames
      .filter((f) => f.channel === 'end' && f.dir === 'server->client' && f.reason === 'cancelled')
      .map((f) => f.exchange),
  );
  const frames = transcript.frames.filter((f, i) => {
    const id = f.channel === 'sse' ? eventIdOf(f.raw) : undefined;
    return id === undefined || !dropped.has(f.exchange) || later.get(id) === i;
  });
  return { ...transcript, frames };
}

// One msw server for the file. The goldens replay at once, each behind handlers for its own URL
// (added, never swapped, so one replay cannot unplug another); the pacing test runs alone after them.
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('createReplayHandlers (msw, in process)', () => {
  test.concurrent.each(goldens.map((g, i) => [g.header.scenario, g, i] as const))(
    '%s replays to a transcript equal to the golden after normalisation',
    async (_, golden, i) => {
      const url = `http://upstream-${i}.test/mcp`;
      const replay = createReplayHandlers(golden, { url });
      server.use(...replay.handlers);
      try {
        const again = await recordCall(url, scenarioOfGolden(golden));
        expect(canonicalJson(semanticFrames(withoutRedelivered({ ...again, header: golden.header })))).toBe(
          canonicalJson(semanticFrames(withoutRedelivered(golden))),
        );
        expect(replay.report().unmatched).toEqual([]);
      } finally {
        replay.close();
      }
    },
  );

  test('streams with real pacing to the SDK client', async () => {
    const golden = goldens.find((g) => g.header.scenario === 'progress-10x100') as Transcript;
    const url = 'http://paced.test/mcp';
    const replay = createReplayHandlers(golden, { url });
    server.resetHandlers(...replay.handlers);
    try {
      const recording = await recordCall(url, scenarioOfGolden(golden));
      const times = recording.frames
        .filter((f) => frameMessage(f)?.method === 'notifications/progress')
        .map((f) => f.t / 1000);
      expect(times).toHaveLength(10);
      // Paced, not at once: 100 ms apart. A stall of this (loaded) process may bunch two of them, but
      // the pacer keeps to the recorded offsets, so the span and most gaps stay as recorded.
      const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
      expect((times.at(-1) as number) - (times[0] as number)).toBeGreaterThan(800);
      expect(gaps.filter((gap) => gap > 60).length).toBeGreaterThanOrEqual(7);
      const client = new Client({ name: 'msw-sdk', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const progress: number[] = [];
      const result = await client.callTool({ name: 'progress', arguments: { steps: 10, step_ms: 100 } }, undefined, {
        onprogress: (p) => progress.push(p.progress),
      });
      expect(result.structuredContent).toEqual({ steps: 10, notified: true, done: true });
      expect(progress.length).toBeGreaterThanOrEqual(9);
      await client.close();
    } finally {
      replay.close();
    }
  });
});
