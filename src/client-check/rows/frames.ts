import type { ChunkingOptions } from '../../replay/chunking.js';
import { firstWrong, ms, outcomeOf, planOf, wrongOutcome } from '../judge-kit.js';
import type { ClientRow, Era, GoldenCall } from '../vocabulary.js';

/** The calls of every framing row: a call with progress, then the text with accents (chatty), both as SSE. */
const FRAME_CALLS: readonly GoldenCall[] = [
  { name: 'progress', arguments: { steps: 3, step_ms: 50 }, steps: 3, stepMs: 50 },
  // One progress first, so that a 2026-07-28 answer streams too (a call with no notification is one JSON body).
  { name: 'chatty', arguments: {}, steps: 1 },
];

/** A framing row: the same calls, the stream framed or cut one odd but valid way; judged on what the client printed. */
function frameRow(id: string, eras: readonly Era[], chunking: ChunkingOptions, what: string): ClientRow {
  return {
    id,
    eras,
    budgetMs: 20_000,
    server: () => ({ calls: FRAME_CALLS, chunking }),
    plan: () => planOf(FRAME_CALLS),
    judge(run) {
      const last = outcomeOf(run, 1).result?.at;
      return firstWrong(
        `with ${what}: every progress line and both texts byte-identical, the last at ${ms(run, last)}`,
        FRAME_CALLS.map((call, index) => wrongOutcome(run, index, call, true)),
      );
    },
  };
}

const BOTH: readonly Era[] = ['legacy', 'modern'];

/** The SSE framing rows, in the order. */
export const FRAME_ROWS: readonly ClientRow[] = [
  frameRow('frame-no-event', BOTH, { noEventField: true }, 'no event: line on any event'),
  frameRow('frame-crlf', BOTH, { crlf: true }, 'CRLF line ends'),
  frameRow('frame-cr', BOTH, { cr: true }, 'CR-only line ends'),
  frameRow('frame-utf8-split', BOTH, { splitUtf8: 'every' }, 'every multi-byte character split across two writes'),
  frameRow('frame-multiline-data', BOTH, { multilineData: true }, 'JSON pretty-printed over several data: lines'),
  frameRow('frame-comments', BOTH, { keepAliveComments: true }, 'a ": keepalive" comment before every event'),
  frameRow('frame-priming-empty', ['legacy'], { primingEvents: true }, 'a priming event (id, empty data) first'),
];
