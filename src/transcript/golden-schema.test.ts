import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { test as fcTest } from '@fast-check/vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isGoldenError } from '../errors.js';
import { eraOf } from './frame.js';
import { GOLDEN_FORMAT, goldenJsonSchema } from './golden-schema.js';
import { TranscriptReader } from './parse.js';

const published = JSON.parse(
  await readFile(fileURLToPath(new URL('./golden.schema.json', import.meta.url)), 'utf8'),
) as Record<string, unknown>;
const goldens = fileURLToPath(new URL('../../goldens/', import.meta.url));
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(published);

const HEADER = `{"format":"${GOLDEN_FORMAT}","frames":1,"protocolVersion":"2025-11-25","recorder":"r","target":"t","transport":"http"}`;

/** The reader's verdict on one line: as line 1 (a header) or as line 2 after a valid header. */
function readerAccepts(line: string, asHeader: boolean): boolean {
  const reader = new TranscriptReader({ source: 'property' });
  try {
    if (!asHeader) reader.line(HEADER);
    reader.line(line);
    return true;
  } catch (error) {
    if (isGoldenError(error)) return false;
    throw error;
  }
}

const schemaAccepts = (line: string): boolean => validate(JSON.parse(line));
const isHeader = (value: unknown): boolean => typeof value === 'object' && value !== null && 'format' in value;

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('data: café 🚀\n\n', '\uD800', 'a\uDC00'),
);
const frame = fc.record(
  {
    t: fc.nat(),
    dir: fc.constantFrom('client->server', 'server->client'),
    channel: fc.constantFrom('http', 'json', 'sse', 'stdio', 'text', 'read', 'end', 'close'),
    exchange: fc.nat(),
    raw: text,
    rawBase64: fc.oneof(
      fc.uint8Array().map((b) => Buffer.from(b).toString('base64')),
      fc.constantFrom('Y8M*!', 'YQ', 'Y==='),
    ),
    method: fc.constantFrom('POST', 'GET', 'DELETE'),
    url: fc.constant('/mcp'),
    status: fc.integer({ min: 100, max: 599 }),
    headers: fc.dictionary(fc.string(), fc.string(), { noNullPrototype: true }),
    size: fc.nat(),
    reason: fc.constantFrom('complete', 'cancelled', 'error', 'open'),
    error: fc.string(),
  },
  { requiredKeys: ['t', 'dir', 'channel', 'exchange'] },
);
const header = fc.record(
  {
    format: fc.constant(GOLDEN_FORMAT),
    era: fc.constantFrom('legacy', 'modern', 'middle'),
    protocolVersion: fc.constantFrom('2025-06-18', '2025-11-25', '2026-07-28'),
    transport: fc.constantFrom('http', 'stdio'),
    target: fc.string(),
    scenario: fc.string(),
    tool: fc.string(),
    arguments: fc.jsonValue(),
    recorder: fc.constant('mcp-golden 0.1.0'),
    notes: fc.oneof(
      fc.dictionary(fc.string(), fc.jsonValue(), { noNullPrototype: true }),
      // The typed keys, each with a value of its type or not.
      fc.record(
        {
          progressToken: fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean()),
          cancelAfter: fc.oneof(fc.nat(), fc.integer({ min: -3, max: -1 }), fc.constant(1.5), fc.string()),
          expectError: fc.oneof(fc.boolean(), fc.constant('yes')),
          era: fc.constantFrom('legacy', 'modern', 'auto', 'middle'),
          answers: fc.oneof(fc.dictionary(fc.string(), fc.object()), fc.dictionary(fc.string(), fc.nat())),
          steps: fc.oneof(fc.array(fc.object(), { maxLength: 2 }), fc.constant([1]), fc.constant({})),
          volatile: fc.record(
            { ignore: fc.oneof(fc.array(fc.string()), fc.constant([1])), mask: fc.array(fc.string()) },
            { requiredKeys: [] },
          ),
          lint: fc.dictionary(fc.constantFrom('rate', 'heartbeat'), fc.oneof(fc.string(), fc.nat())),
          reference: fc.oneof(fc.boolean(), fc.constant('true')),
          extension: fc.jsonValue(),
        },
        { requiredKeys: [] },
      ),
    ),
    frames: fc.nat(),
  },
  { requiredKeys: ['format', 'protocolVersion', 'transport', 'target', 'recorder', 'frames'] },
);

/** Mutations of one line's object: drop, retype or add a field. */
const mutated = (base: fc.Arbitrary<Record<string, unknown>>) =>
  fc
    .tuple(
      base,
      fc.constantFrom('drop', 'set', 'add'),
      fc.nat(),
      fc.oneof(fc.jsonValue(), fc.constantFrom(-1, 1.5, 2 ** 53, '', 'mcp-golden/0', 'sideways', null, [], {})),
      fc.constantFrom('parsed', 'extension', 'x', '__extra'),
    )
    .map(([value, kind, index, replacement, added]) => {
      const copy: Record<string, unknown> = { ...value };
      const keys = Object.keys(copy);
      const key = keys[index % keys.length] as string;
      if (kind === 'drop') delete copy[key];
      else if (kind === 'set') copy[key] = replacement;
      else copy[added] = replacement;
      return copy;
    });

const line = fc.oneof(
  frame,
  header,
  mutated(frame as fc.Arbitrary<Record<string, unknown>>),
  mutated(header as fc.Arbitrary<Record<string, unknown>>),
);

describe('one source for the golden format', () => {
  test('the published golden.schema.json is the one generated from the zod schemas (`npm run schema`)', () => {
    expect(published).toEqual(JSON.parse(JSON.stringify(goldenJsonSchema())));
  });

  fcTest.prop([line], { numRuns: 600 })(
    'the reader and the published schema give the same verdict on generated lines and mutations',
    (value) => {
      const text = JSON.stringify(value);
      expect(readerAccepts(text, isHeader(value)), text).toBe(schemaAccepts(text));
    },
  );

  test('the reader and the published schema agree on every line of every committed golden, and on mutations of them', async () => {
    const files = (await readdir(goldens)).filter((f) => f.endsWith('.jsonl'));
    expect(files.length).toBeGreaterThan(20);
    const disagreements: string[] = [];
    const check = (where: string, text: string, asHeader: boolean): void => {
      const reader = readerAccepts(text, asHeader);
      const schema = schemaAccepts(text);
      if (reader !== schema) disagreements.push(`${where}: reader ${reader}, schema ${schema}: ${text.slice(0, 120)}`);
    };
    let accepted = 0;
    for (const file of files) {
      const lines = (await readFile(`${goldens}${file}`, 'utf8')).split('\n').slice(0, -1);
      lines.forEach((text, i) => {
        check(`${file}:${i + 1}`, text, i === 0);
        if (schemaAccepts(text)) accepted++;
        // Three mutations of each line: an unknown field, a dropped field, a field of the wrong type.
        const value = JSON.parse(text) as Record<string, unknown>;
        const keys = Object.keys(value).sort();
        const key = keys[i % keys.length] as string;
        const { [key]: _, ...dropped } = value;
        check(`${file}:${i + 1} +field`, JSON.stringify({ ...value, extension: 1 }), i === 0);
        check(`${file}:${i + 1} -${key}`, JSON.stringify(dropped), i === 0);
        check(`${file}:${i + 1} ${key}=[]`, JSON.stringify({ ...value, [key]: [] }), i === 0);
      });
      expect(accepted).toBeGreaterThan(0);
    }
    expect(disagreements).toEqual([]);
  });

  test.each([
    [
      'a frame with both raw and rawBase64',
      { t: 1, dir: 'server->client', channel: 'sse', exchange: 1, raw: 'a', rawBase64: 'YQ==' },
    ],
    ['a fractional time', { t: 1.5, dir: 'server->client', channel: 'sse', exchange: 1, raw: 'a' }],
    ['an unknown field', { t: 1, dir: 'server->client', channel: 'sse', exchange: 1, raw: 'a', parsed: {} }],
    ['bad base64', { t: 1, dir: 'server->client', channel: 'sse', exchange: 1, rawBase64: 'Y8M*' }],
    [
      'a newer format',
      { format: 'mcp-golden/2', protocolVersion: 'x', transport: 'http', target: 't', recorder: 'r', frames: 0 },
    ],
  ])('both reject %s', (_, value) => {
    const text = JSON.stringify(value);
    expect(schemaAccepts(text)).toBe(false);
    expect(readerAccepts(text, 'format' in value)).toBe(false);
  });

  test('a header names its era and an old header (no era) reads as the legacy era', () => {
    const old = new TranscriptReader({ source: 'old' });
    old.line(HEADER.replace('"frames":1', '"frames":0'));
    expect(eraOf(old.finish().header)).toBe('legacy');
    const modern = new TranscriptReader({ source: 'modern' });
    modern.line(HEADER.replace('"frames":1', '"era":"modern","frames":1').replace('2025-11-25', '2026-07-28'));
    modern.line('{"channel":"close","dir":"client->server","exchange":3,"t":5}');
    const read = modern.finish();
    expect(eraOf(read.header)).toBe('modern');
    expect(read.header.protocolVersion).toBe('2026-07-28');
    expect(read.frames[0]?.channel).toBe('close');
    const middle = HEADER.replace('"frames":1', '"era":"middle","frames":1');
    expect(schemaAccepts(middle)).toBe(false);
    expect(readerAccepts(middle, true)).toBe(false);
  });

  test("documents every field, and every typed key of the header's notes", () => {
    type Properties = Record<string, { description?: string; properties?: Properties }>;
    const variants = (published.anyOf ?? []) as { properties: Properties }[];
    expect(variants).toHaveLength(2);
    for (const variant of variants) {
      for (const [field, spec] of Object.entries(variant.properties)) expect(spec.description, field).toBeTruthy();
    }
    const notes = Object.entries(variants[0]?.properties.notes?.properties ?? {});
    expect(notes.map(([key]) => key)).toEqual(expect.arrayContaining(['cancelAfter', 'lint', 'volatile', 'reference']));
    for (const [key, spec] of notes) expect(spec.description, `notes.${key}`).toBeTruthy();
  });

  test('a typed note of the wrong type is refused naming its key; any other key is kept as written', () => {
    const reader = new TranscriptReader({ source: 'g.jsonl' });
    const withNotes = (notes: unknown) => HEADER.replace('"frames":1', `"frames":0,"notes":${JSON.stringify(notes)}`);
    expect(() => reader.line(withNotes({ lint: { rate: 5 } }))).toThrow(
      'Failed to read golden "g.jsonl": line 1 has "notes.lint.rate" 5; expected a string.',
    );
    expect(() => new TranscriptReader().line(withNotes({ cancelAfter: 'three' }))).toThrow(
      'line 1 has "notes.cancelAfter" "three"; expected a whole number >= 0.',
    );
    const kept = new TranscriptReader();
    kept.line(withNotes({ cancelAfter: 3, reference: true, mine: { any: ['thing'] } }));
    expect(kept.finish().header.notes).toEqual({ cancelAfter: 3, reference: true, mine: { any: ['thing'] } });
  });
});
