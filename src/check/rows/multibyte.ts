/** The multibyte family: large output of 1- to 4-byte UTF-8 arrives byte-identical, however the gateway cuts its reads. */
import { MULTIBYTE_FILLER, multibyteBlock } from '../../server/check-tools.js';
import { counted } from '../../transcript/counted.js';
import { firstDifference } from '../../transcript/first-difference.js';
import { resultContent, resultTexts } from '../../transcript/json-rpc.js';
import { LEG, newTag, quote, result, row, withSession } from '../kit.js';
import type { BatteryProperty } from '../vocabulary.js';

/** Large output with 2-, 3- and 4-byte characters: decoders that split sequences across reads show U+FFFD. */
export const multibyte = (blocks: number, chars: number): BatteryProperty =>
  row(`large multibyte output (${blocks} x ${chars / 1024} Ki chars)`, 'heavy', (context, name) =>
    withSession(context, async (session) => {
      const tag = newTag('multibyte');
      const seen = await session.call({
        tool: 'multibyte_output',
        arguments: { blocks, chars, tag },
        id: 'check-multibyte',
      });
      const content = resultContent(seen.response?.message);
      if (!content)
        return result(name, 'fail', `${LEG.client}: no result arrived${seen.error ? ` (${seen.error})` : ''}`);
      const texts = resultTexts(seen.response?.message);
      const bytes = texts.reduce((n: number, text) => n + Buffer.byteLength(text ?? ''), 0);
      for (let n = 0; n < blocks; n++) {
        const got = texts[n] ?? '';
        const want = multibyteBlock(n, chars);
        if (got === want) continue;
        const at = firstDifference(got, want);
        const bad = (got.match(/\uFFFD/g) ?? []).length;
        return result(
          name,
          'fail',
          `${LEG.client}: block ${n} of ${content.length} differs from character ${at} on: got ${quote(got.slice(Math.max(0, at - 8), at + 12))}, expected ${quote(want.slice(Math.max(0, at - 8), at + 12))} (${bad} U+FFFD replacement characters in the block, ${got.length} vs ${want.length} UTF-16 units); the upstream sent "${MULTIBYTE_FILLER}" cycles, ${blocks} blocks`,
          { blocks: content.length, replacementChars: bad, firstDifference: at },
        );
      }
      if (content.length !== blocks)
        return result(name, 'fail', `${LEG.client}: ${counted(content.length, 'block')} arrived, expected ${blocks}`);
      return result(
        name,
        'pass',
        `${blocks} blocks, ${(bytes / 1e6).toFixed(1)} MB of 1- to 4-byte UTF-8, byte-identical`,
        { blocks, bytes },
      );
    }),
  );
