import type { Era } from '../../src/transcript/frame.js';

// What each `--fault` of the careful client (test/support/careful-client.mjs) must fail in the client
// check's default row set, and nothing else: the judge's tests assert exactly this set per fault, and
// that the careful client without a fault passes every row. Eras: `legacy` is 2025-11-25, `modern`
// 2026-07-28 (MCP_CONFORMANCE_PROTOCOL_VERSION).
//
// A fault fails every row whose server does what the fault mishandles, not only the row named after
// it: a client that splits lines at LF only reads no CR-only stream either (crlf-blind), and a client
// that loses the progress sharing a read with the result loses the progress a resumed stream replays
// with its result in one burst (async-progress-dispatch). max-event-1mib caps SSE events only:
// result-large streams its result as an SSE event after one progress in both eras, so both rows fail.

/** One row of the client check in one era. */
export interface RowInEra {
  readonly id: string;
  readonly era: Era;
}

/** The careful client's faults (its `--fault NAME` values), each breaking one behaviour. */
export type CarefulFault =
  | 'crlf-blind'
  | 'cr-blind'
  | 'utf8-per-chunk'
  | 'event-required'
  | 'first-data-line-only'
  | 'comments-as-data'
  | 'max-event-1mib'
  | 'async-progress-dispatch'
  | 'unknown-progress-fatal'
  | 'shared-progress-token'
  | 'hang-on-5xx'
  | 'no-cancel'
  | 'cancel-wrong-id'
  | 'hang-on-stream-end'
  | 'no-resume'
  | 'resume-no-last-event-id'
  | 'second-resume-no-id'
  | 'resume-ignores-retry'
  | 'no-reinit-404'
  | 'get-no-backoff'
  | 'no-reissue'
  | 'reissue-same-id'
  | 'mrtr-same-id'
  | 'requeststate-reserialised';

const both = (id: string): RowInEra[] => [
  { id, era: 'legacy' },
  { id, era: 'modern' },
];
const legacy = (...ids: string[]): RowInEra[] => ids.map((id) => ({ id, era: 'legacy' }));
const modern = (...ids: string[]): RowInEra[] => ids.map((id) => ({ id, era: 'modern' }));

/** For each fault, the exact rows (id and era) of the default set it must fail. */
export const CLIENT_FAULT_ROWS: Readonly<Record<CarefulFault, readonly RowInEra[]>> = {
  'crlf-blind': [...both('frame-crlf'), ...both('frame-cr')],
  'cr-blind': both('frame-cr'),
  'utf8-per-chunk': both('frame-utf8-split'),
  'event-required': both('frame-no-event'),
  'first-data-line-only': both('frame-multiline-data'),
  'comments-as-data': both('frame-comments'),
  'max-event-1mib': both('result-large'),
  'async-progress-dispatch': [
    ...both('progress-coalesced-final'),
    ...legacy('resume-priming-close', 'resume-drop-again'),
  ],
  'unknown-progress-fatal': both('progress-late-or-unknown'),
  'shared-progress-token': both('progress-concurrent'),
  'hang-on-5xx': both('http-5xx'),
  'no-cancel': both('cancel-abort'),
  'cancel-wrong-id': legacy('cancel-abort'),
  'hang-on-stream-end': legacy('stream-ends-no-response'),
  'no-resume': legacy('resume-priming-close', 'resume-drop-again'),
  'resume-no-last-event-id': legacy('resume-priming-close', 'resume-drop-again'),
  'second-resume-no-id': legacy('resume-drop-again'),
  'resume-ignores-retry': legacy('resume-priming-close'),
  'no-reinit-404': legacy('session-404'),
  'get-no-backoff': legacy('get-flap'),
  'no-reissue': modern('drop-reissue'),
  'reissue-same-id': modern('drop-reissue'),
  'mrtr-same-id': modern('mrtr-streamed'),
  'requeststate-reserialised': modern('mrtr-streamed'),
};

/** The careful client's command line with `faults` (the check appends the URL). */
export function carefulClientCommand(...faults: readonly CarefulFault[]): string {
  const file = new URL('./careful-client.mjs', import.meta.url).pathname;
  return [process.execPath, file, ...faults.flatMap((fault) => ['--fault', fault])]
    .map((part) => `'${part.replaceAll("'", "'\\''")}'`)
    .join(' ');
}

/** `id@era` keys of a fault's rows, sorted: compare with the failing rows of a report. */
export function failingRowKeys(fault: CarefulFault): string[] {
  return CLIENT_FAULT_ROWS[fault].map((row) => `${row.id}@${row.era}`).sort();
}
