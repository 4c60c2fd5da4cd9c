import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { readGolden } from '../store/golden-file.js';
import { isResponse } from '../transcript/json-rpc.js';
import { LiveEvent, liveFill } from './live-event.js';
import { buildReplayPlan } from './replay-plan.js';
import { dataOf, type LiveStamp, stampFrame } from './stamp.js';
import { fillTemplate, stampTemplate } from './stamp-template.js';

const GOLDENS = fileURLToPath(new URL('../../goldens', import.meta.url));
const files = (await readdir(GOLDENS)).filter((f) => f.endsWith('.jsonl')).sort();
const decoder = new TextDecoder();

const STAMPS: LiveStamp[] = [
  {},
  { idJson: '7' },
  { tokenJson: '"t-ü-😀"', recordedTokenJson: '"golden-progress-small"' },
  { idJson: '"req-\\"q\\""', tokenJson: '9007199254740991', recordedTokenJson: '0' },
];

describe('stamp templates', () => {
  test('a template filled in gives the bytes stampFrame gives, for every frame of every golden', async () => {
    let frames = 0;
    for (const file of files) {
      const plan = buildReplayPlan([await readGolden(join(GOLDENS, file))]);
      for (const event of plan.exchanges.flatMap((e) => e.events)) {
        const answer = event.message !== undefined && isResponse(event.message);
        for (const stamp of STAMPS) {
          const { idJson: _, ...withoutId } = stamp;
          const own: LiveStamp = answer ? stamp : withoutId;
          const want = stampFrame(event.raw, event.kind, own);
          const live = new LiveEvent(event, liveFill(stamp));
          expect(live.raw).toBe(want);
          expect(
            live
              .bytes()
              .map((b) => decoder.decode(b))
              .join(''),
          ).toBe(want);
          frames++;
        }
      }
    }
    expect(frames).toBeGreaterThan(500);
  });

  test('CRLF, bare CR, several data lines and a nested id are cut as stampFrame cuts them', () => {
    const raw =
      'event: message\r\nid: 4\r\ndata: {"jsonrpc":"2.0","id":3,"result":{"id":9,"_meta":{"progressToken":"a"}}}\r\r\ndata: {"params":{"progressToken":"a"}}\n\n';
    for (const stamp of STAMPS) {
      expect(fillTemplate(stampTemplate(raw, 'sse', true), stamp)).toBe(stampFrame(raw, 'sse', stamp));
    }
  });

  test('a JSON message spread over several data lines is stamped as the one message a client reads', () => {
    // The "id" inside "result" is not the answer's id, though it opens its own line; the real id
    // and the token sit on later lines.
    const raw =
      'event: message\ndata: {"jsonrpc":"2.0",\ndata:  "result":{"id":"inner","content":[]},\r\ndata: "params":{"progressToken":"a"},\ndata: "id":3}\n\n';
    const want =
      'event: message\ndata: {"jsonrpc":"2.0",\ndata:  "result":{"id":"inner","content":[]},\r\ndata: "params":{"progressToken":"live"},\ndata: "id":7}\n\n';
    const stamp = { idJson: '7', tokenJson: '"live"', recordedTokenJson: '"a"' };
    expect(stampFrame(raw, 'sse', stamp)).toBe(want);
    expect(fillTemplate(stampTemplate(raw, 'sse', true), stamp)).toBe(want);
    expect(JSON.parse(dataOf(want, 'sse') as string)).toEqual({
      jsonrpc: '2.0',
      result: { id: 'inner', content: [] },
      params: { progressToken: 'live' },
      id: 7,
    });
  });

  test('the token is stamped in params.progressToken and a server request’s params._meta, nowhere else', () => {
    const stamp = { idJson: '7', tokenJson: '"live"', recordedTokenJson: '"a"' };
    const cases: [string, string][] = [
      ['{"method":"notifications/progress","params":{"progressToken":"a"}}', '"live"'],
      ['{"method":"sampling/createMessage","id":3,"params":{"_meta":{"progressToken":"a"}}}', '"live"'],
      ['{"id":1,"result":{"progressToken":"a","_meta":{"progressToken":"a"}}}', '"a"'],
      ['{"method":"x","params":{"data":{"progressToken":"a"},"list":[{"progressToken":"a"}]}}', '"a"'],
    ];
    for (const [raw, want] of cases) {
      const out = fillTemplate(stampTemplate(raw, 'json', false), stamp);
      expect(out, raw).toBe(raw.replaceAll('"a"', want));
      expect(stampFrame(raw, 'json', { tokenJson: '"live"', recordedTokenJson: '"a"' })).toBe(out);
    }
  });

  test('calls with the same live values share the stamped bytes of an event; a call with any other value gets its own', () => {
    const raw =
      'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"rec","progress":1}}\n\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n';
    const event = { offsetUs: 0, raw, kind: 'sse' as const, template: stampTemplate(raw, 'sse', true) };
    const bytesFor = (stamp: LiveStamp): readonly Uint8Array[] => new LiveEvent(event, liveFill({ ...stamp })).bytes();
    const text = (bytes: readonly Uint8Array[]): string => bytes.map((b) => decoder.decode(b)).join('');
    const first: LiveStamp = { idJson: '5', tokenJson: '"a"', recordedTokenJson: '"rec"' };
    const one = bytesFor(first);
    // Another session's call, equal values in new strings: the very same bytes, not a copy.
    expect(bytesFor({ idJson: String(5), tokenJson: `"${'a'}"`, recordedTokenJson: '"rec"' })).toBe(one);
    // Each value alone changes the bytes: never the last call's bytes for other values.
    const stamps: LiveStamp[] = [
      first,
      { ...first, idJson: '6' },
      { ...first, idJson: '6', tokenJson: '"b"' },
      { ...first, idJson: '6', tokenJson: '"b"', recordedTokenJson: '"other"' },
      { idJson: '6' },
      first,
    ];
    for (const stamp of stamps)
      expect(text(bytesFor(stamp)), JSON.stringify(stamp)).toBe(stampFrame(raw, 'sse', stamp));
    expect(text(one)).toBe(stampFrame(raw, 'sse', first));
  });

  test('a large event goes out as recorded slices shared by every session, only the live values its own', () => {
    const block = 'x'.repeat(100_000);
    const raw = `data: {"jsonrpc":"2.0","id":1,"result":{"text":"${block}"}}\n\n`;
    const event = { offsetUs: 0, raw, kind: 'sse' as const, template: stampTemplate(raw, 'sse', true) };
    const one = new LiveEvent(event, liveFill({ idJson: '"a"' })).bytes();
    const two = new LiveEvent(event, liveFill({ idJson: '"b"' })).bytes();
    expect(one).toHaveLength(3);
    expect(one[0]).toBe(two[0]);
    expect(one[2]).toBe(two[2]);
    expect(decoder.decode(one[1])).toBe('"a"');
  });
});
