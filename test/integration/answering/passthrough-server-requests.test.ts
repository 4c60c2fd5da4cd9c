import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, test } from 'vitest';
import { startReferenceServer } from '../../../src/server/http-server.js';
import { startElicitingServer } from '../../support/eliciting-server.js';
import { startHttpPassthroughReplay } from '../../support/http-passthrough-replay.js';
import { runInProcess } from '../../support/in-process-cli.js';
import { useTempDir } from '../../support/temp-dir.js';

// `replay --unmatched passthrough` in the 2025 era relays both ways: a live server's own request
// during a passed-through call (`elicitation/create`) reaches the client and the client's answer
// reaches the live server; and a live session whose handshake failed (the server not up yet) is
// opened again by the next request, not remembered as failed.

const temp = useTempDir('mcp-golden-passthrough-requests-');

test("a live server's elicitation/create during a passed-through call is answered by the client", async () => {
  const live = await startElicitingServer();
  const out = join(temp.dir, 'elicit');
  const { passthrough, replay } = await startHttpPassthroughReplay(live.url, out);
  const client = new Client({ name: 'elicit-test', version: '1' }, { capabilities: { elicitation: {} } });
  const asked: unknown[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { ok: true } };
  });
  try {
    const transport = new StreamableHTTPClientTransport(new URL(replay.url));
    await client.connect(transport);
    const result = await client.callTool({ name: 'ask', arguments: {} });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'answered: {"ok":true}' }] });
    await transport.terminateSession();
  } finally {
    await client.close();
    await replay.close();
  }
  expect(asked).toEqual(['Go ahead?']);
  expect(live.answers).toEqual([{ action: 'accept', content: { ok: true } }]);
  const files = await passthrough.finish();
  expect(files).toHaveLength(1);
  // The golden holds the client's answer, so verify answers the live server's question the same way.
  const verify = await runInProcess(['verify', '--target', live.url, files[0] as string]);
  await live.close();
  expect(verify.code, verify.stdout + verify.stderr).toBe(0);
  const golden = await readFile(files[0] as string, 'utf8');
  expect(golden).toContain('elicitation/create');
  // The client's answer went to the live server through the recording proxy.
  expect(golden).toContain('\\"action\\":\\"accept\\"');
  expect(passthrough.passed.map((p) => p.request)).toEqual(['tools/call ask', 'a response']);
}, 60_000);

test('a first handshake that fails (the live server not up yet) is tried again by the next request', async () => {
  // A port nothing listens on yet: taken, then freed.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const out = join(temp.dir, 'retry');
  const { passthrough, replay } = await startHttpPassthroughReplay(`http://127.0.0.1:${port}/mcp`, out);
  const client = new Client({ name: 'retry-test', version: '1' });
  let live: Awaited<ReturnType<typeof startReferenceServer>> | undefined;
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(replay.url)));
    const call = () => client.callTool({ name: 'long_output', arguments: { blocks: 1, chars: 12 } });
    await expect(call()).rejects.toThrow(/could not reach/);
    live = await startReferenceServer({ port });
    // The same replay session: its live session is opened now.
    expect(await call()).toMatchObject({ content: [{ type: 'text', text: '[block 0] ab' }] });
  } finally {
    await client.close();
    await replay.close();
  }
  const files = await passthrough.finish();
  await live?.close();
  expect(passthrough.passed.map((p) => p.outcome)).toEqual([expect.stringMatching(/^failed: /), 'HTTP 200']);
  expect(files).toHaveLength(1);
  expect(await readdir(out)).toHaveLength(1);
}, 60_000);
