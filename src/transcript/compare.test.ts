import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { compareTranscripts, describeBlocks } from './compare.js';
import type { Frame, Transcript } from './frame.js';
import { parseTranscript } from './parse.js';

const load = async (name: string): Promise<Transcript> =>
  parseTranscript(await readFile(fileURLToPath(new URL(`../../goldens/${name}.jsonl`, import.meta.url)), 'utf8'));

/** A copy of the transcript with one frame's raw text rewritten. */
function edit(t: Transcript, pick: (f: Frame) => boolean, change: (raw: string) => string): Transcript {
  let done = false;
  return {
    header: t.header,
    frames: t.frames.map((f) => {
      if (done || !pick(f) || f.raw === undefined) return f;
      done = true;
      return { ...f, raw: change(f.raw) };
    }),
  };
}

describe('compareTranscripts', () => {
  test('passes on the same transcript, and on one that differs only in volatile values', async () => {
    const golden = await load('progress-10x100');
    expect(compareTranscripts(golden, golden).pass).toBe(true);
    const otherSession = edit(
      golden,
      (f) => f.channel === 'sse',
      (raw) => raw.replace('id: 1-1', 'id: 9-9'),
    );
    expect(compareTranscripts(otherSession, golden).pass).toBe(true);
  });

  test('says which block moved, with frame numbers', async () => {
    const golden = await load('chatty');
    const swapped = edit(
      golden,
      (f) => f.raw?.includes('first block: short') === true && f.dir === 'server->client',
      (raw) =>
        raw
          .replace('first block: short', 'TMP')
          .replace('fourth block: unicode; café résumé naïve', 'first block: short')
          .replace('TMP', 'fourth block: unicode; café résumé naïve'),
    );
    const result = compareTranscripts(swapped, golden);
    expect(result.pass).toBe(false);
    expect(result.headline).toMatch(
      /^frame \d+ of \d+ differs \(exchange 6, server->client, frame \d\): block 0 moved to position 3$/,
    );
    expect(result.changes.some((c) => c.includes('$.result.content'))).toBe(true);
  });

  test('semantic mode ignores JSON key order; bytes mode does not', async () => {
    const golden = await load('chatty');
    const reordered = edit(
      golden,
      (f) => f.raw?.includes('first block: short') === true && f.channel === 'sse',
      (raw) => raw.replace('{"result":', '{"jsonrpc":"2.0","result":').replace(',"jsonrpc":"2.0","id":1}', ',"id":1}'),
    );
    expect(compareTranscripts(reordered, golden).pass).toBe(true);
    const bytes = compareTranscripts(reordered, golden, { bytes: true });
    expect(bytes.pass).toBe(false);
    expect(bytes.headline).toContain('differs (exchange 6, server->client');
  });

  test('reports a missing frame and an extra one', async () => {
    const golden = await load('progress-10x100');
    const lastProgress = golden.frames.filter((f) => f.raw?.includes('"step 10/10"'))[0];
    const missing: Transcript = { header: golden.header, frames: golden.frames.filter((f) => f !== lastProgress) };
    expect(compareTranscripts(missing, golden).headline).toMatch(
      /^frame \d+ of \d+ differs \(exchange 6, server->client, frame \d+\): expected notifications\/progress, got result #4$/,
    );
    expect(compareTranscripts(golden, missing).headline).toContain('expected result #4, got notifications/progress');
  });

  test('checks timing only when asked, and says by how much', async () => {
    const golden = await load('progress-10x100');
    const late: Transcript = {
      header: golden.header,
      frames: golden.frames.map((f) => (f.raw?.includes('"step 5/10"') ? { ...f, t: f.t + 300_000 } : f)),
    };
    expect(compareTranscripts(late, golden).pass).toBe(true);
    const timed = compareTranscripts(late, golden, { timing: { absMs: 50, relGap: 0.1 } });
    expect(timed.pass).toBe(false);
    expect(timed.timing).toHaveLength(1);
    expect(timed.timing[0]).toMatch(
      /^exchange 6 notifications\/progress arrived at \d+\.\d ms, expected \d+\.\d ms ± \d+\.\d ms$/,
    );
  });

  test('keeps the diff of a 3.2 MB golden focused', async () => {
    const golden = await load('long_output-50x65536');
    const changed = edit(
      golden,
      (f) => f.raw?.includes('[block 30]') === true,
      (raw) => raw.replace('[block 30] abcdefghij', '[block 30] abcdefXhij'),
    );
    const started = performance.now();
    const result = compareTranscripts(changed, golden);
    const ms = performance.now() - started;
    expect(result.headline).toMatch(/block 30 differs at character 17: expected "\[block 30\] abcdefghij/);
    expect(result.expectedText.length + result.actualText.length).toBeLessThan(5000);
    expect(ms).toBeLessThan(5000);
  });
});

describe('compareTranscripts on look-alike text', () => {
  const swap = (golden: Transcript, from: string, to: string): Transcript =>
    edit(
      golden,
      (f) => f.raw?.includes(from) === true && f.dir === 'server->client',
      (raw) => raw.replace(from, to),
    );

  test.each([
    [
      'NFD',
      'café',
      'cafe\u0301',
      'cafe\\u0301',
      '(the same text in another Unicode normalisation form (expected NFC, got partly decomposed))',
    ],
    [
      'a BOM',
      'unicode;',
      '\ufeffunicode;',
      '\\ufeffunicode;',
      '(the same text but for invisible characters (escaped above))',
    ],
    ['U+2028', 'naïve', 'naïve\u2028', 'naïve\\u2028', '(the same text but for invisible characters (escaped above))'],
    [
      'a combining mark',
      'résumé',
      're\u0301sume\u0301',
      're\\u0301sume\\u0301',
      '(the same text in another Unicode normalisation form (expected NFC, got partly decomposed))',
    ],
  ])('escapes %s in the headline, the change set and the diff text', async (_, from, to, shown, note) => {
    const golden = await load('chatty');
    const result = compareTranscripts(swap(golden, from, to), golden);
    expect(result.pass).toBe(false);
    expect(result.headline).toContain(shown);
    expect(result.headline.endsWith(note)).toBe(true);
    expect(result.changes.join('\n')).toContain(shown);
    expect(result.actualText).toContain(shown);
    expect(result.actualText).not.toBe(result.expectedText);
  });
});

describe('describeBlocks', () => {
  const blocks = (...texts: string[]) => texts.map((text) => ({ type: 'text', text }));
  test.each([
    [blocks('a', 'b', 'c'), blocks('c', 'b', 'a'), 'block 0 moved to position 2'],
    [blocks('ab', 'cd', 'e'), blocks('abcd', 'e'), 'block 0 merged with block 1 (2 blocks instead of 3)'],
    [blocks('abcdef'), blocks('abc'), 'block 0 truncated to 3 of 6 characters'],
    [blocks('a', 'b'), blocks('a'), '1 block instead of 2: block 1 is missing'],
    [blocks('a'), blocks('a', 'b'), '2 blocks instead of 1'],
  ])('%j -> %j: %s', (expected, actual, message) => {
    expect(describeBlocks(expected, actual)).toBe(message);
  });
});
