import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runInProcess } from '../support/in-process-cli.js';
import { EVERYTHING } from '../support/server-everything.js';
import { useTempDir } from '../support/temp-dir.js';

// server-everything (SDK v1 McpServer) answers arguments that fail its zod schema with an isError
// result "MCP error -32602: Input validation error: ...", not a JSON-RPC error.
const SERVER = `${JSON.stringify(process.execPath)} ${JSON.stringify(EVERYTHING)} stdio`;
const temp = useTempDir('mcp-golden-rejected-');

async function record(name: string, scenario: Record<string, unknown>) {
  const scenarios = join(temp.dir, `${name}.json`);
  await writeFile(scenarios, JSON.stringify([{ name, tool: 'get-sum', arguments: { a: 'x' }, ...scenario }]));
  const out = join(temp.dir, name);
  const result = await runInProcess(['record', '--stdio', SERVER, '--scenarios', scenarios, '--out', out]);
  const files = await readdir(out).catch(() => []);
  return { ...result, files };
}

describe('record against server-everything: a call refused by argument validation', () => {
  test('fails with exit 1 naming the validation error, and writes no golden', async () => {
    const result = await record('get-sum-invalid', {});
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^\[mcp-golden\] Cannot record "get-sum-invalid": the server rejected its arguments \{"a":"x"\} \(isError result: MCP error -32602: Input validation error: Invalid arguments for tool get-sum: /,
    );
    expect(result.stderr).toContain('add "expectError": true to record the server\'s error on purpose');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.files).toEqual([]);
  });

  test('records the error with "expectError": true (exit 0)', async () => {
    const result = await record('get-sum-invalid-expected', { expectError: true });
    expect(result.stderr).toContain('recorded');
    expect(result.code).toBe(0);
    expect(result.files).toEqual(['get-sum-invalid-expected.jsonl']);
  });
});
