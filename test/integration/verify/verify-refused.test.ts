import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type ReferenceServer, startReferenceServer } from '../../../src/server/http-server.js';
import { verifyGoldens } from '../../../src/verify/verify-goldens.js';

const SOURCE = fileURLToPath(new URL('../../../goldens/progress-invalid-steps.jsonl', import.meta.url));
let dir: string;
let server: ReferenceServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-verify-refused-'));
  server = await startReferenceServer();
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

test('a golden that recorded the refusal of its arguments (no expectError in its header) is not "now refused"', async () => {
  // Goldens recorded before record required expectError for an invalid-arguments call hold the
  // server's -32602 error without saying they expect it: the server refusing again is no drift.
  const [head, ...rest] = (await readFile(SOURCE, 'utf8')).split('\n');
  const header = JSON.parse(head as string);
  delete header.notes.expectError;
  const file = join(dir, 'progress-invalid-steps.jsonl');
  await writeFile(file, [JSON.stringify(header), ...rest].join('\n'));
  const [verdict] = await verifyGoldens([file], { target: server.url });
  expect(verdict?.differences).toEqual([]);
  expect(verdict?.refused).toBeUndefined();
  expect(verdict?.pass).toBe(true);
});
