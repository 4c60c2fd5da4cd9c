import { describe, expect, it } from 'vitest';
import { runInProcess } from '../../test/support/in-process-cli.js';
import { parseFaultSpecs } from './replay-fault-option.js';

describe('replay --fault', () => {
  it('reads every spec into the replay faults', () => {
    expect(
      parseFaultSpecs([
        'fail-call=2:503',
        'session-gone-after=1',
        'cut-call=1:progress:no-ids',
        'drop-resumes=1',
        'flap-gets',
        'coalesce-final',
        'input-rounds=2',
        'keep-alive=15000',
      ]),
    ).toEqual({
      failCall: { nth: 2, status: 503 },
      sessionGoneAfter: 1,
      cutCall: { nth: 1, after: 'progress', stripIds: true },
      dropResumes: 1,
      flapGets: true,
      coalesceFinal: true,
      inputRounds: 2,
      keepAliveMs: 15000,
    });
    expect(parseFaultSpecs(['cut-call=3:priming'])).toEqual({ cutCall: { nth: 3, after: 'priming' } });
  });

  it('refuses an unknown spec or a bad number with the specs it takes', () => {
    expect(() => parseFaultSpecs(['cut-call=1:middle'])).toThrow(
      /Unknown --fault "cut-call=1:middle". Expected one of: fail-call=N:STATUS/,
    );
    expect(() => parseFaultSpecs(['fail-call=0:503'])).toThrow(
      /--fault fail-call=0:503: expected a whole number >= 1, got "0"/,
    );
    expect(() => parseFaultSpecs(['fail-call=1:99'])).toThrow(/expected a whole number >= 400, got "99"/);
  });

  it('is a usage error on the command line, before any golden is read', async () => {
    const { code, stderr } = await runInProcess(['replay', 'no-such-golden.jsonl', '--fault', 'flap-gets=1']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/Unknown --fault "flap-gets=1"/);
  });

  it('refuses --cr with --crlf, and HTTP stream options with --stdio, before any golden is read', async () => {
    const both = await runInProcess(['replay', 'no-such-golden.jsonl', '--cr', '--crlf']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/Conflicting options: --cr and --crlf/);
    const stdio = await runInProcess([
      'replay',
      'no-such-golden.jsonl',
      '--stdio',
      '--fault',
      'flap-gets',
      '--write-bytes',
      '64',
    ]);
    expect(stdio.code).toBe(2);
    expect(stdio.stderr).toMatch(
      /--write-bytes, --fault shape an HTTP replay's SSE streams and requests; replay --stdio writes JSON lines/,
    );
    const one = await runInProcess(['replay', 'no-such-golden.jsonl', '--stdio', '--crlf']);
    expect(one.stderr).toMatch(/--crlf shapes an HTTP replay's SSE streams/);
  });
});
