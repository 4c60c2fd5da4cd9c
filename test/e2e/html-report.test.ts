import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { recordCall } from '../../src/record/record-call.js';
import { writeGolden } from '../../src/store/golden-file.js';
import { runInProcess } from '../support/in-process-cli.js';
import { useTempDir } from '../support/temp-dir.js';

// The HTML reports rendered by a real browser: Debian's chromium, headless (CI installs it with
// apt-get; without it these tests are skipped outside CI, as the nginx ones are).
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
const chromiumMissing = CHROMIUM === undefined && !process.env.CI;
const GATEWAY = fileURLToPath(new URL('../support/faithful-gateway.mjs', import.meta.url));
const RELEASE = fileURLToPath(new URL('../support/release-server.mjs', import.meta.url));
const GOLDENS = fileURLToPath(new URL('../../goldens/', import.meta.url));
const temp = useTempDir('mcp-golden-html-');

/** The DOM chromium built from `file`, serialised after layout (no network, a throwaway profile). */
async function renderedDom(file: string): Promise<string> {
  const profile = await mkdtemp(join(tmpdir(), 'mcp-golden-chromium-'));
  try {
    const { stdout } = await promisify(execFile)(
      CHROMIUM ?? 'chromium',
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--no-first-run',
        `--user-data-dir=${profile}`,
        '--dump-dom',
        `file://${file}`,
      ],
      { timeout: 60_000, maxBuffer: 32 * 1024 * 1024 },
    );
    return stdout;
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}

/** A page that loads nothing: no script, no external stylesheet, image, font or frame. */
function expectSelfContained(html: string): void {
  expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(|\ssrc=|\shref=/i);
  expect(html).toContain("default-src 'none'");
}

const cellTexts = (dom: string, cls: string): string[] =>
  [...dom.matchAll(new RegExp(`<td class="${cls}">([^<]*)`, 'g'))].map((m) =>
    (m[1] ?? '').replace(/&amp;/g, '&').replace(/&quot;/g, '"'),
  );

describe.skipIf(chromiumMissing)('HTML reports rendered in headless chromium', { timeout: 180_000 }, () => {
  test('check --html: one page with a time axis in ms, every row by name, pass/fail marks, evidence', async () => {
    const [html, json] = [join(temp.dir, 'check.html'), join(temp.dir, 'check.json')];
    const result = await runInProcess([
      'check',
      '--gateway',
      `node ${GATEWAY} {upstream} {port}`,
      ...['--only', 'token', '--only', 'unicode', '--html', html, '--json', json],
    ]);
    expect(result.code).toBe(0);
    const page = await readFile(html, 'utf8');
    expectSelfContained(page);
    const dom = await renderedDom(html);
    expect(dom).toContain('aria-label="time axis in ms"');
    expect(dom).toMatch(/<text x="0\.0" y="11" text-anchor="middle">0<\/text>/);
    const names = cellTexts(dom, 'name');
    const rows = JSON.parse(await readFile(json, 'utf8')).results as { property: string; evidence: string }[];
    for (const row of rows) {
      expect(names.some((name) => name.startsWith(row.property))).toBe(true);
      expect(dom).toContain(row.evidence.replace(/&/g, '&amp;').replace(/</g, '&lt;').slice(0, 30));
    }
    expect(dom.match(/<td class="verdict">✓ pass<\/td>/g)?.length).toBe(names.length);
    expect(dom).toContain('<div>upstream</div><div>client</div>');
  });

  test('verify --html: each golden with its calls on the axis and the diff of the changed one', async () => {
    const goldens = join(temp.dir, 'goldens');
    const target = { command: process.execPath, args: [RELEASE, '--stdio', 'v1'], label: 'release-server v1' };
    await writeGolden(
      join(goldens, 'report.jsonl'),
      await recordCall(target, { name: 'report', tool: 'report', arguments: { topic: 'golden' } }),
    );
    const html = join(temp.dir, 'verify.html');
    const result = await runInProcess([
      'verify',
      '--stdio',
      `node ${RELEASE} --stdio text-changed`,
      ...['--mask', 'iso-time', '--mask', 'uuid', '--html', html, goldens],
    ]);
    expect(result.code).toBe(1);
    expectSelfContained(await readFile(html, 'utf8'));
    const dom = await renderedDom(html);
    expect(dom).toContain('aria-label="time axis in ms"');
    expect(dom).toMatch(/<h2>\S*report\.jsonl: FAIL<\/h2>/);
    expect(cellTexts(dom, 'name')).toEqual(['initialize (id 0)', 'tools/list (id 2)', 'tools/call report (id 1)']);
    expect(dom).toContain('<td class="verdict">✗ FAIL</td>');
    expect(dom).toContain('<span class="del">- "report on golden"</span>');
    expect(dom).toContain('<span class="add">+ "Report on golden"</span>');
  });

  test('inspect --html: the calls of two goldens, marked by the progress contract', async () => {
    const html = join(temp.dir, 'inspect.html');
    const result = await runInProcess([
      'inspect',
      '--html',
      html,
      join(GOLDENS, 'progress-small.jsonl'),
      join(GOLDENS, 'progress-cancel-after-3.jsonl'),
    ]);
    expect(result.code).toBe(0);
    expectSelfContained(await readFile(html, 'utf8'));
    const dom = await renderedDom(html);
    expect(dom).toContain('aria-label="time axis in ms"');
    expect(dom.match(/<h2>/g)).toHaveLength(2);
    expect(cellTexts(dom, 'name').filter((n) => n.startsWith('tools/call progress'))).toHaveLength(2);
    expect(dom).toMatch(/<circle [^>]*fill="#9467bd"><title>client sent notifications\/cancelled/);
  });
});
