import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runInProcess as runCli } from '../../test/support/in-process-cli.js';
import { crossGolden } from '../replay/cross-era.js';
import { readGolden } from '../store/golden-file.js';
import { serializeTranscript } from '../transcript/serialize.js';

const GOLDENS = fileURLToPath(new URL('../../goldens/', import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-lint-cli-'));
  await mkdir(join(dir, 'goldens/nested'), { recursive: true });
  await copyFile(join(GOLDENS, 'chatty.jsonl'), join(dir, 'goldens/chatty.jsonl'));
  await copyFile(join(GOLDENS, 'progress-small.jsonl'), join(dir, 'goldens/nested/progress-small.jsonl'));
  await mkdir(join(dir, 'empty'));
  // The server echoes another token than the request's: one token-echo violation, on call 1.
  const text = await readFile(join(GOLDENS, 'progress-small.jsonl'), 'utf8');
  const wrong = text.replace(
    '\\"progressToken\\":\\"golden-progress-small\\",\\"progress\\"',
    '\\"progressToken\\":\\"another-token\\",\\"progress\\"',
  );
  expect(wrong).not.toBe(text);
  await mkdir(join(dir, 'broken'));
  await writeFile(join(dir, 'broken/wrong-token.jsonl'), wrong);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('mcp-golden lint', () => {
  test('takes a directory: every *.jsonl under it, in name order', async () => {
    const result = await runCli(['lint', 'goldens/'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const verdicts = result.stdout.split('\n').filter((l) => / \(\d+ requests?\)$/.test(l));
    expect(verdicts.map((l) => l.replace(/ \(\d+ requests?\)$/, ''))).toEqual([
      'goldens/chatty.jsonl: ok',
      'goldens/nested/progress-small.jsonl: ok',
    ]);
    expect(result.stdout).toContain('[mcp-golden] lint: 2 goldens follow the progress contract');
  });

  test('a modern golden says once that the rules of 2025 resumption are off, naming both', async () => {
    const modern = crossGolden(await readGolden(join(GOLDENS, 'chatty.jsonl')), 'modern');
    await mkdir(join(dir, 'modern'), { recursive: true });
    await writeFile(join(dir, 'modern/chatty.jsonl'), serializeTranscript(modern as NonNullable<typeof modern>));
    const result = await runCli(['lint', 'modern'], { cwd: dir });
    const off = result.stdout.split('\n').filter((line) => line.includes('not in the modern era'));
    expect(off).toEqual([
      '  event-ids, resume-lossless off: not in the modern era: 2026-07-28 has no SSE event ids and no Last-Event-ID resumption',
    ]);
  });

  test('a directory with no goldens is a usage error naming it', async () => {
    const result = await runCli(['lint', 'empty'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^\[mcp-golden\] No goldens found in "empty": expected \*\.jsonl files\./);
  });

  test('--junit writes one test case per call, the violation as its failure; --sarif each violation at its line', async () => {
    const result = await runCli(['lint', 'broken', 'goldens', '--junit', 'lint.xml', '--sarif', 'lint.sarif'], {
      cwd: dir,
    });
    expect(result.code).toBe(1);
    const xml = await readFile(join(dir, 'lint.xml'), 'utf8');
    const cases = [...xml.matchAll(/<testcase name="([^"]*)" classname="([^"]*)"/g)].map((m) => `${m[2]}: ${m[1]}`);
    // Every request of the handshake is a call: tools/list, the lists the server advertises, the call.
    const requests = ['tools/list 2', 'resources/list 3', 'resources/templates/list 4', 'tools/call 1'];
    expect(cases).toEqual(
      ['broken/wrong-token.jsonl', 'goldens/chatty.jsonl', 'goldens/nested/progress-small.jsonl'].flatMap((golden) =>
        requests.map((request) => `${golden}: ${request}`),
      ),
    );
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toMatch(
      /<testcase name="tools\/call 1" classname="broken\/wrong-token.jsonl" time="0.000">\n\s+<failure message="token-echo: /,
    );
    const sarif = JSON.parse(await readFile(join(dir, 'lint.sarif'), 'utf8'));
    expect(sarif.version).toBe('2.1.0');
    const [found] = sarif.runs[0].results;
    expect(sarif.runs[0].results).toHaveLength(1);
    expect(found.ruleId).toBe('token-echo');
    expect(found.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: 'broken/wrong-token.jsonl' },
      region: { startLine: expect.any(Number) },
    });
    expect(sarif.runs[0].tool.driver.rules.map((r: { id: string }) => r.id)).toContain('token-echo');
  });
});
