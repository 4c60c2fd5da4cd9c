import { describe, expect, it } from 'vitest';
import { isGoldenError } from '../errors.js';
import { compileVolatile, IGNORED, mergeVolatile, parseVolatile } from './volatile.js';

const message = {
  jsonrpc: '2.0',
  id: 1,
  result: {
    content: [
      { type: 'text', text: 'report on golden' },
      { type: 'text', text: 'generated 2026-11-23T17:48:02.174Z as f234d33a-0b1c-4d2e-9f00-123456789abc' },
    ],
    meta: { generatedAt: 1763920082174, nested: { generatedAt: 'x' } },
  },
};

describe('compileVolatile', () => {
  it('masks built-in iso-time and uuid matches and keeps the rest of the text', () => {
    const out = compileVolatile({ mask: ['iso-time', 'uuid'] }).apply(message) as typeof message;
    expect(out.result.content[1]?.text).toBe('generated <iso-time> as <uuid>');
    expect(out.result.content[0]?.text).toBe('report on golden');
  });

  it('masks user regular expressions, with or without slashes and flags', () => {
    const v = compileVolatile({ mask: ['report on', '/GOLDEN/i'] });
    const out = v.apply(message) as typeof message;
    expect(out.result.content[0]?.text).toBe('<masked> <masked>');
    expect(v.maskText('a Golden day')).toBe('a <masked> day');
  });

  it('leaves out the values selected by RFC 9535 paths, descendants included', () => {
    const out = compileVolatile({ ignore: ['$..generatedAt', '$.result.content[1].text'] }).apply(message) as {
      result: { content: { text?: string }[]; meta: Record<string, unknown> };
    };
    expect(out.result.meta).toEqual({ nested: {} });
    expect(out.result.content[1]).toEqual({ type: 'text' });
    expect(out.result.content[0]?.text).toBe('report on golden');
  });

  it('keeps array positions when an item is ignored, and never changes its input', () => {
    const out = compileVolatile({ ignore: ['$.result.content[0]'] }).apply(message) as typeof message;
    expect(out.result.content[0]).toBe(IGNORED);
    expect(out.result.content).toHaveLength(2);
    expect(message.result.content[0]?.text).toBe('report on golden');
    expect(message.result.meta.generatedAt).toBe(1763920082174);
  });

  it('makes two runs with different times and ids compare equal, and not without the masks', () => {
    const run = (time: string, id: string): unknown => ({ text: `generated ${time} as ${id}` });
    const a = run('2026-11-23T17:48:02.174Z', 'f234d33a-0b1c-4d2e-9f00-123456789abc');
    const b = run('2026-11-23T18:01:59.001+01:00', '00000000-1111-2222-3333-444444444444');
    const v = compileVolatile({ mask: ['iso-time', 'uuid'] });
    expect(v.apply(a)).toEqual(v.apply(b));
    expect(compileVolatile({}).apply(a)).not.toEqual(compileVolatile({}).apply(b));
  });

  it('rejects an invalid path or pattern with a usage error naming it', () => {
    const check = (fn: () => unknown, text: string): void => {
      try {
        fn();
        expect.unreachable();
      } catch (error) {
        expect(isGoldenError(error, 'E_USAGE')).toBe(true);
        expect((error as Error).message).toContain(text);
      }
    };
    check(() => compileVolatile({ ignore: ['$.['] }, 'in --ignore'), 'Invalid ignore path "$.[" in --ignore');
    check(() => compileVolatile({ mask: ['(unclosed'] }), 'Invalid mask "(unclosed"');
    check(() => compileVolatile({ mask: ['x*'] }), 'matches the empty string');
    check(() => parseVolatile({ ignore: 'x' }, 'in config'), '"ignore" must be an array of strings');
  });
});

describe('mergeVolatile', () => {
  it('joins option sets in order without repeats', () => {
    expect(mergeVolatile({ mask: ['uuid'] }, undefined, { mask: ['uuid', 'iso-time'], ignore: ['$.id'] })).toEqual({
      ignore: ['$.id'],
      mask: ['uuid', 'iso-time'],
    });
    expect(mergeVolatile()).toEqual({});
  });
});
