import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';

const schema = JSON.parse(
  await readFile(fileURLToPath(new URL('./golden.schema.json', import.meta.url)), 'utf8'),
) as object;
const goldens = fileURLToPath(new URL('../../goldens/', import.meta.url));
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

describe('the golden JSON Schema', () => {
  test('accepts every line of every committed golden', async () => {
    const files = (await readdir(goldens)).filter((f) => f.endsWith('.jsonl'));
    expect(files.length).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const file of files) {
      const lines = (await readFile(`${goldens}${file}`, 'utf8')).split('\n').slice(0, -1);
      lines.forEach((line, i) => {
        if (!validate(JSON.parse(line)))
          problems.push(`${file}:${i + 1} ${JSON.stringify(validate.errors?.slice(0, 2))}`);
      });
    }
    expect(problems).toEqual([]);
  });

  test.each([
    [
      'a frame with both raw and rawBase64',
      { t: 1, dir: 'server->client', channel: 'sse', exchange: 1, raw: 'a', rawBase64: 'YQ==' },
    ],
    ['a fractional time', { t: 1.5, dir: 'server->client', channel: 'sse', exchange: 1, raw: 'a' }],
    ['an unknown field', { t: 1, dir: 'server->client', channel: 'sse', exchange: 1, raw: 'a', parsed: {} }],
    [
      'a newer format',
      { format: 'mcp-golden/2', protocolVersion: 'x', transport: 'http', target: 't', recorder: 'r', frames: 0 },
    ],
  ])('rejects %s', (_, line) => {
    expect(validate(line)).toBe(false);
  });

  test('documents every field', () => {
    const defs = (schema as { $defs: Record<string, { properties: Record<string, { description?: string }> }> }).$defs;
    for (const def of Object.values(defs)) {
      for (const [field, spec] of Object.entries(def.properties)) expect(spec.description, field).toBeTruthy();
    }
  });
});
