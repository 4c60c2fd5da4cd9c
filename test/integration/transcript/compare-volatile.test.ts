import { describe, expect, it } from 'vitest';
import { compareTranscripts } from '../../../src/transcript/compare.js';
import { GOLDEN_FORMAT, type Transcript } from '../../../src/transcript/frame.js';

function run(text: string, sse = false): Transcript {
  const result = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }] } });
  return {
    header: { format: GOLDEN_FORMAT, protocolVersion: '2025-11-25', transport: 'stdio', target: 'x', recorder: 'x' },
    frames: [
      {
        t: 0,
        dir: 'client->server',
        channel: 'stdio',
        exchange: 1,
        raw: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"report","arguments":{}}}',
      },
      sse
        ? { t: 10, dir: 'server->client', channel: 'sse', exchange: 1, raw: `event: message\ndata: ${result}\n\n` }
        : { t: 10, dir: 'server->client', channel: 'stdio', exchange: 1, raw: result },
    ],
  };
}

const first = 'report on golden, generated 2026-11-23T17:48:02.174Z as f234d33a-0b1c-4d2e-9f00-123456789abc';
const second = 'report on golden, generated 2026-11-23T18:00:00.000Z as 00000000-1111-2222-3333-444444444444';

describe('compareTranscripts with volatile values', () => {
  it('passes two runs whose times and ids differ once they are masked, and fails without the masks', () => {
    for (const sse of [false, true]) {
      expect(
        compareTranscripts(run(second, sse), run(first, sse), { volatile: { mask: ['iso-time', 'uuid'] } }).pass,
      ).toBe(true);
      const bare = compareTranscripts(run(second, sse), run(first, sse));
      expect(bare.pass).toBe(false);
      expect(bare.headline).toContain('block 0 differs');
    }
  });

  it('still fails a change outside the masked parts, and passes it when its path is ignored', () => {
    const changed = second.replace('report on', 'Report on');
    const masked = compareTranscripts(run(changed), run(first), { volatile: { mask: ['iso-time', 'uuid'] } });
    expect(masked.pass).toBe(false);
    expect(masked.headline).toContain('block 0 differs at character 0: expected "report on golden');
    const ignored = compareTranscripts(run(changed), run(first), {
      volatile: { ignore: ['$.result.content[0].text'] },
    });
    expect(ignored.pass).toBe(true);
  });

  it('masks raw text in byte comparison', () => {
    expect(
      compareTranscripts(run(second), run(first), { bytes: true, volatile: { mask: ['iso-time', 'uuid'] } }).pass,
    ).toBe(true);
    expect(compareTranscripts(run(second), run(first), { bytes: true }).pass).toBe(false);
  });
});
