import { describe, expect, it } from 'vitest';
import { diffJson, formatDifference } from './json-difference.js';
import { classifyListChanges, formatSchemaChange } from './schema-drift.js';

const search = {
  name: 'search',
  description: 'Search the docs.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string' },
      format: { type: 'string', enum: ['text', 'json', 'csv'] },
      limit: { type: ['integer', 'string'], maximum: 100 },
    },
    required: ['query'],
  },
};
const tools = (...list: unknown[]) => ({ tools: list });
const withSchema = (change: (schema: typeof search.inputSchema) => void) => {
  const copy = structuredClone(search);
  change(copy.inputSchema);
  return copy;
};
const lines = (before: unknown, after: unknown) =>
  classifyListChanges('tools/list', before, after).map((c) => formatSchemaChange(c));

describe('classifyListChanges', () => {
  it('classifies removed tools, new required arguments, removed arguments and narrowing as breaking', () => {
    expect(lines(tools(search, { name: 'gone' }), tools(search))).toEqual(['breaking: tool "gone": tool removed']);
    expect(
      lines(
        tools(search),
        tools(
          withSchema((s) => {
            (s.properties as Record<string, unknown>).page = { type: 'integer' };
            s.required = ['query', 'page'];
          }),
        ),
      ),
    ).toEqual(['breaking: tool "search" argument "page": new required argument']);
    expect(
      lines(tools(search), tools(withSchema((s) => delete (s.properties as Record<string, unknown>).format))),
    ).toEqual(['breaking: tool "search" argument "format": argument removed']);
    expect(
      lines(
        tools(search),
        tools(
          withSchema((s) => {
            s.properties.format.enum = ['text', 'json'];
            s.properties.limit = { type: ['integer'], maximum: 50 };
          }),
        ),
      ),
    ).toEqual([
      'breaking: tool "search" argument "format": enum narrowed: removed "csv"',
      'breaking: tool "search" argument "limit": type narrowed: "integer", "string" -> "integer"',
      'breaking: tool "search" argument "limit": maximum tightened: 100 -> 50',
    ]);
  });

  it('classifies new tools, new optional arguments, widening and descriptions as compatible', () => {
    const after = tools(
      withSchema((s) => {
        (s.properties as Record<string, unknown>).page = { type: 'integer' };
        s.properties.format.enum = ['text', 'json', 'csv', 'md'];
      }),
      { name: 'fetch', inputSchema: { type: 'object' } },
    );
    (after.tools[0] as { description: string }).description = 'Search all the docs.';
    expect(lines(tools(search), after)).toEqual([
      'compatible: tool "search": description changed',
      'compatible: tool "search" argument "format": enum widened: added "md"',
      'compatible: tool "search" argument "page": new optional argument',
      'compatible: tool "fetch": new tool',
    ]);
    expect(lines(tools(search), tools(search))).toEqual([]);
  });

  it('judges prompt arguments by the same rules', () => {
    const prompt = (args: unknown[]) => ({ prompts: [{ name: 'review', arguments: args }] });
    expect(
      classifyListChanges(
        'prompts/list',
        prompt([{ name: 'code', required: true }]),
        prompt([
          { name: 'code', required: true },
          { name: 'style', required: true },
        ]),
      ).map(formatSchemaChange),
    ).toEqual(['breaking: prompt "review" argument "style": new required argument']);
  });
});

describe('diffJson', () => {
  it('lists every differing path, expected first, cutting long values around the difference', () => {
    const long = 'x'.repeat(200);
    const differences = diffJson(
      { result: { content: [{ text: 'report on golden' }, { text: `${long}a${long}` }], isError: false } },
      { result: { content: [{ text: 'Report on golden' }, { text: `${long}b${long}` }] }, extra: 1 },
      'tools/call result',
    ).map((d) => formatDifference(d, 40));
    expect(differences).toEqual([
      'tools/call result $.result.content[0].text: "report on golden" != "Report on golden"',
      `tools/call result $.result.content[1].text: …${'x'.repeat(20)}a${'x'.repeat(19)}… != …${'x'.repeat(20)}b${'x'.repeat(19)}…`,
      'tools/call result $.result.isError: false != (absent)',
      'tools/call result $.extra: (absent) != 1',
    ]);
  });
});
