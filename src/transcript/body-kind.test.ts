import { describe, expect, test } from 'vitest';
import { bodyKindOf, mediaTypeOf } from './body-kind.js';

describe('bodyKindOf', () => {
  test('reads an SSE stream whatever its parameters and case', () => {
    expect(bodyKindOf('text/event-stream')).toBe('sse');
    expect(bodyKindOf('text/event-stream; charset=utf-8')).toBe('sse');
    expect(bodyKindOf('Text/Event-Stream;charset=UTF-8')).toBe('sse');
    expect(bodyKindOf('  TEXT/EVENT-STREAM  ')).toBe('sse');
  });

  test('reads JSON and +json types as JSON', () => {
    expect(bodyKindOf('application/json')).toBe('json');
    expect(bodyKindOf('application/json; charset=utf-8')).toBe('json');
    expect(bodyKindOf('APPLICATION/JSON')).toBe('json');
    expect(bodyKindOf('application/problem+json')).toBe('json');
  });

  test('reads a missing, empty or unknown type as text', () => {
    for (const header of [undefined, null, '', ';', 'text/plain', 'text/html; charset=utf-8', 'garbage', 'json'])
      expect(bodyKindOf(header)).toBe('text');
    // A substring is not a type: an SSE or JSON name inside another type does not count.
    expect(bodyKindOf('application/x-text/event-stream')).toBe('text');
    expect(bodyKindOf('application/json-seq')).toBe('text');
  });

  test('mediaTypeOf keeps the type and drops parameters', () => {
    expect(mediaTypeOf(' Application/JSON ; charset=utf-8')).toBe('application/json');
    expect(mediaTypeOf(undefined)).toBe('');
  });
});
