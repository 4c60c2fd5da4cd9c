import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { callTwiceWithOneToken } from '../../test/support/call-twice.js';
import { isGoldenError } from '../errors.js';
import { readGolden } from '../store/golden-file.js';
import type { Frame, Transcript } from '../transcript/frame.js';
import { frameMessage } from '../transcript/frame-content.js';
import { lintTranscript } from './lint-transcript.js';
import { formatViolation } from './lint-violation.js';

const goldens = fileURLToPath(new URL('../../goldens/', import.meta.url));
const golden = (name: string): Promise<Transcript> => readGolden(`${goldens}${name}.jsonl`);
const rules = (t: Transcript, options?: Parameters<typeof lintTranscript>[1]): string[] =>
  lintTranscript(t, options).violations.map((v) => v.rule);
const withFrames = (t: Transcript, frames: Frame[]): Transcript => ({ header: t.header, frames });
const isProgress = (f: Frame): boolean => frameMessage(f)?.method === 'notifications/progress';

describe('lintTranscript', () => {
  test('two sequential calls reusing a progress token: each call is judged on its own progress', async () => {
    const twice = callTwiceWithOneToken(await golden('progress-10x100'));
    const report = lintTranscript(twice);
    // The handshake's tools/list, resources/list and templates list, then the call twice.
    expect(report.calls).toBe(5);
    expect(report.violations.map((v) => formatViolation(v))).toEqual([]);
    // A real fault in the second call is still its own: its progress repeated after its result.
    const secondExchange = twice.frames.findLast((f) => frameMessage(f)?.method === 'tools/call')?.exchange;
    const second = twice.frames.filter((f) => f.exchange === secondExchange);
    const progress = second.filter(isProgress).at(-1) as Frame;
    const end = twice.frames.findLastIndex((f) => f.exchange === secondExchange && f.channel === 'sse');
    const late = {
      ...progress,
      t: (twice.frames[end]?.t ?? 0) + 10,
      raw: (progress.raw ?? '').replace(/(^|\n)id: \S+/, '$1id: late-1'),
    };
    const faulty = withFrames(twice, [...twice.frames.slice(0, end + 1), late, ...twice.frames.slice(end + 1)]);
    expect(lintTranscript(faulty).violations.map((v) => [v.rule, v.call])).toEqual([
      ['monotonic', '2'],
      ['after-result', '2'],
    ]);
  });

  test('every committed reference golden lints clean (exceptions only where its notes explain them)', async () => {
    const files = (await readdir(goldens)).filter((f) => f.endsWith('.jsonl'));
    const found: string[] = [];
    for (const file of files) {
      const transcript = await readGolden(`${goldens}${file}`);
      const report = lintTranscript(transcript);
      found.push(...report.violations.map((v) => `${file}: ${formatViolation(v)}`));
      for (const skipped of report.skipped) expect(skipped.why).toMatch(/^golden notes: .{20,}/);
    }
    expect(found).toEqual([]);
  });

  test('the exception in a golden’s notes is a real one: switched back on, the rule fires', async () => {
    const stress = await golden('progress-100x10');
    expect(lintTranscript(stress).skipped.map((s) => s.rule)).toEqual(['rate']);
    expect(rules(stress, { rules: { rate: true } })).toContain('rate');
  });

  test('the error path: a final notification before isError passes; without it final-progress names the isError', async () => {
    const failing = await golden('progress-error-after-final');
    expect(rules(failing)).toEqual([]);
    const lastProgress = failing.frames.findLastIndex(isProgress);
    const without = withFrames(
      failing,
      failing.frames.filter((_, i) => i !== lastProgress),
    );
    const [violation] = lintTranscript(without).violations;
    expect(violation?.rule).toBe('final-progress');
    expect(violation?.message).toContain('before an isError result');
    expect(violation?.expected).toContain('progress == total (4)');
  });

  test('the heartbeat default tolerates the reference tool’s longest step (5 s); a tighter limit catches it', async () => {
    const slow = await golden('progress-max-step-ms');
    expect(rules(slow)).toEqual([]);
    const [violation] = lintTranscript(slow, { maxSilenceMs: 4000 }).violations;
    expect(violation?.rule).toBe('heartbeat');
    expect(violation?.got).toMatch(/^50\d\d\.\d ms of silence$/);
  });

  test('events replayed together after a Last-Event-ID reconnect are not a rate burst', async () => {
    const resumed = await golden('progress-resume-after-drop');
    const strict = { minIntervalMs: 50, rateWindow: 1 };
    expect(rules(resumed, strict)).toEqual([]);
    // The same frames without the reconnect header: the catch-up batch now counts as a burst.
    const unmarked = withFrames(
      resumed,
      resumed.frames.map((f) => {
        if (!f.headers?.['last-event-id']) return f;
        const { 'last-event-id': _, ...headers } = f.headers;
        return { ...f, headers };
      }),
    );
    expect(rules(unmarked, strict)).toContain('rate');
  });

  test('event ids: random ids only need to be unique; ordered ids must increase per stream', async () => {
    const base = await golden('progress-10x100');
    let n = 0;
    const uuid = (): string => `${(0x9e3779b9 * ++n).toString(16)}-4f1a-${n}b7e-a`;
    const setId = (f: Frame, id: string): Frame =>
      f.channel === 'sse' && /(^|\n)id: /.test(f.raw ?? '')
        ? { ...f, raw: (f.raw ?? '').replace(/(^|\n)id: [^\n]*/, `$1id: ${id}`) }
        : f;
    const random = withFrames(
      base,
      base.frames.map((f) => setId(f, uuid())),
    );
    expect(rules(random)).toEqual([]);
    let down = 1000;
    const decreasing = withFrames(
      base,
      base.frames.map((f) => setId(f, `s-${down--}`)),
    );
    expect(rules(decreasing)).toContain('event-ids');
    const repeated = withFrames(
      base,
      base.frames.map((f) => setId(f, 'same')),
    );
    const messages = lintTranscript(repeated).violations.map((v) => v.message);
    expect(messages[0]).toMatch(/^event id "same" was already used for a different event \(line \d+\)$/);
  });

  test('a lost event on resume is named by resume-lossless only', async () => {
    const resumed = await golden('progress-resume-after-drop');
    const reconnect = resumed.frames.find((f) => f.headers?.['last-event-id'] !== undefined)?.exchange;
    const firstReplayed = resumed.frames.findIndex((f) => isProgress(f) && f.exchange === reconnect);
    const lossy = withFrames(
      resumed,
      resumed.frames.filter((_, i) => i !== firstReplayed),
    );
    const report = lintTranscript(lossy);
    expect(report.violations.map((v) => v.rule)).toEqual(['resume-lossless']);
    expect(report.violations[0]?.message).toContain('(1 missing)');
  });

  test('rules switch off per call, and unknown rule ids are a usage error', async () => {
    const stress = await golden('progress-100x10');
    expect(rules(stress, { rules: { rate: true, monotonic: false } })).toEqual(['rate']);
    expect(lintTranscript(stress, { rules: { monotonic: false } }).skipped.map((s) => s.rule)).toEqual([
      'rate',
      'monotonic',
    ]);
    const error = (() => {
      try {
        lintTranscript(stress, { rules: { 'no-such-rule': false } as never });
      } catch (e) {
        return e;
      }
    })();
    expect(isGoldenError(error, 'E_USAGE')).toBe(true);
    expect((error as Error).message).toContain('Unknown lint rule "no-such-rule". Expected one of: token-echo,');
  });
});
