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
  | 'cancel-early'
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
  | 'requeststate-reserialised'
  | 'no-timeout'
  | 'timeout-no-cancel'
  | 'timeout-total-60s';

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
  'cancel-early': both('cancel-abort'),
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
  // Timeouts of a minute or more: no row of the default set runs that long (its budgets are 20 s at most).
  'no-timeout': [],
  'timeout-no-cancel': [],
  'timeout-total-60s': [],
};

/**
 * For the faults that fail `--long` rows, the exact `--long` rows (id and era) each fails; a fault not
 * named here fails none of them. (timeout-total-60s gives up on a 70 s silence after its 60 s:
 * silent-then-result is a warn for it, a timeout of a minute or more said in time, not a fail.)
 */
export const LONG_FAULT_ROWS: Readonly<Partial<Record<CarefulFault, readonly RowInEra[]>>> = {
  'no-timeout': [...both('progress-endless'), ...both('timeout-cancels')],
  'timeout-no-cancel': both('timeout-cancels'),
  'timeout-total-60s': both('progress-keeps-alive'),
  'no-cancel': both('timeout-cancels'),
  'cancel-wrong-id': legacy('timeout-cancels'),
  'comments-as-data': both('silent-then-result-comments'),
};

/** The careful client's command line with `faults` (the check appends the URL). */
export function carefulClientCommand(...faults: readonly CarefulFault[]): string {
  return scaledCarefulClientCommand(1, ...faults);
}

/** The careful client's command line with its timeouts multiplied by `scale` (for `longRows(scale)`). */
export function scaledCarefulClientCommand(scale: number, ...faults: readonly CarefulFault[]): string {
  const file = new URL('./careful-client.mjs', import.meta.url).pathname;
  const scaled = scale === 1 ? [] : ['--time-scale', String(scale)];
  return [process.execPath, file, ...faults.flatMap((fault) => ['--fault', fault]), ...scaled]
    .map((part) => `'${part.replaceAll("'", "'\\''")}'`)
    .join(' ');
}

/** `id@era` keys of a fault's rows, sorted: compare with the failing rows of a report. */
export function failingRowKeys(fault: CarefulFault): string[] {
  return CLIENT_FAULT_ROWS[fault].map((row) => `${row.id}@${row.era}`).sort();
}
