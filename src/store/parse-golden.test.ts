import { describe, expect, test } from 'vitest';
import { isGoldenError } from '../errors.js';
import { GOLDEN_FORMAT } from '../transcript/frame.js';
import { serializeTranscript } from '../transcript/serialize.js';
import { parseTranscript } from './parse-golden.js';

describe('corrupt goldens, read by the package', () => {
  const good = serializeTranscript({
    header: {
      format: GOLDEN_FORMAT,
      protocolVersion: '2025-11-25',
      transport: 'http',
      target: 'mcp-golden serve',
      recorder: 'r',
      scenario: 'progress-10x100',
    },
    frames: [
      { t: 1, dir: 'client->server', channel: 'http', exchange: 1, method: 'POST', url: '/mcp', headers: {} },
      { t: 2, dir: 'server->client', channel: 'sse', exchange: 1, raw: 'data: {}\n\n' },
      { t: 3, dir: 'server->client', channel: 'end', exchange: 1, reason: 'complete' },
    ],
  });
  const lines = good.split('\n');

  function errorOf(text: string): Error {
    try {
      parseTranscript(text, { source: 'goldens/progress-10x100.jsonl' });
    } catch (error) {
      if (error instanceof Error) return error;
    }
    throw new Error('expected parseTranscript to throw');
  }

  test('a bad JSON line names the file, the line and the fix', () => {
    const text = [lines[0], lines[1], '{"t": 2, oops}', lines[3], ''].join('\n');
    const error = errorOf(text);
    expect(isGoldenError(error, 'E_GOLDEN_PARSE')).toBe(true);
    expect(error.message).toMatch(
      /^Failed to read golden "goldens\/progress-10x100\.jsonl": line 3 is not valid JSON \(.+\)\. Each line must be one frame\. Fix line 3 or regenerate it with `npx mcp-golden record progress-10x100`\.$/,
    );
  });

  test("a golden of the user's own server names the record command for that server and folder", () => {
    const stdio = good.replace('"target":"mcp-golden serve"', '"target":"node dist/server.js --port 0"');
    expect(stdio).not.toBe(good);
    const cut = stdio.slice(0, stdio.length - 20);
    expect(errorOf(cut).message).toContain(
      "`npx mcp-golden record progress-10x100 --target 'node dist/server.js --port 0' --scenarios <scenarios.json> --out goldens`",
    );
    const overStdio = stdio.replace('"transport":"http"', '"transport":"stdio"');
    expect(errorOf(overStdio.slice(0, overStdio.length - 20)).message).toContain(
      "`npx mcp-golden record progress-10x100 --stdio 'node dist/server.js --port 0' --scenarios <scenarios.json> --out goldens`",
    );
  });

  test('a newer format is refused with an upgrade hint', () => {
    const error = errorOf(good.replace('"format":"mcp-golden/1"', '"format":"mcp-golden/2"'));
    expect(isGoldenError(error, 'E_GOLDEN_VERSION')).toBe(true);
    expect(error.message).toContain('is in format mcp-golden/2, newer than this mcp-golden reads (mcp-golden/1)');
    expect(error.message).toContain('Upgrade mcp-golden');
  });

  test('a file cut inside a line is reported as truncated', () => {
    const error = errorOf(good.slice(0, good.length - 20));
    expect(error.message).toContain('the file is truncated (line 4 does not end with a newline)');
    expect(error.message).toContain('`npx mcp-golden record progress-10x100`');
  });

  test('a file cut at a line boundary is caught by the frame count', () => {
    const error = errorOf(`${lines.slice(0, 3).join('\n')}\n`);
    expect(error.message).toContain('the header announces 3 frames, the file has 2');
  });

  test.each([
    ['an empty file', '', 'line 1 is missing: the file is empty'],
    ['no header', `${lines[1]}\n`, 'line 1 is not a transcript header'],
    ['a bad direction', good.replace('"dir":"server->client"', '"dir":"sideways"'), 'line 3 has "dir" "sideways"'],
    ['a fractional time', good.replace('"t":2', '"t":2.5'), 'line 3 has "t" 2.5; expected whole microseconds'],
    ['an unknown channel', good.replace('"channel":"end"', '"channel":"bogus"'), 'line 4 has "channel" "bogus"'],
  ])('%s is reported with its line', (_, text, message) => {
    expect(errorOf(text).message).toContain(message);
  });
});
