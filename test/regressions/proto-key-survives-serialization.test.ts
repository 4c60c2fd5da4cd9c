import { expect, test } from 'vitest';
import { canonicalJson } from '../../src/transcript/canonical-json.js';
import { GOLDEN_FORMAT } from '../../src/transcript/frame.js';
import { normalizeTranscript } from '../../src/transcript/normalize.js';
import { parseTranscript } from '../../src/transcript/parse.js';
import { serializeTranscript } from '../../src/transcript/serialize.js';

// Found by the round-trip property: sorting keys by assignment turned a "__proto__" member into a
// prototype change, so the key vanished from the golden.
test('a "__proto__" argument or header survives serialization and normalisation', () => {
  const args = JSON.parse('{"__proto__":0,"steps":3}') as Record<string, unknown>;
  const headers = JSON.parse('{"__proto__":"x","accept":"text/event-stream"}') as Record<string, string>;
  expect(canonicalJson(args)).toBe('{"__proto__":0,"steps":3}');
  const transcript = {
    header: {
      format: GOLDEN_FORMAT,
      protocolVersion: 'p',
      transport: 'http' as const,
      target: 't',
      recorder: 'r',
      arguments: args,
    },
    frames: [
      {
        t: 0,
        dir: 'client->server' as const,
        channel: 'http' as const,
        exchange: 1,
        method: 'POST',
        url: '/mcp',
        headers,
      },
    ],
  };
  const parsed = parseTranscript(serializeTranscript(transcript));
  expect(Object.keys(parsed.header.arguments as object)).toEqual(['__proto__', 'steps']);
  expect(Object.keys(normalizeTranscript(parsed).frames[0]?.headers ?? {})).toEqual(['__proto__', 'accept']);
});
