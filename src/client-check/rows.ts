import { CANCEL_ROWS } from './rows/cancel.js';
import { FAILURE_ROWS } from './rows/failures.js';
import { FRAME_ROWS } from './rows/frames.js';
import { GET_FLAP_ROWS } from './rows/get-flap.js';
import { INPUT_ROUND_ROWS } from './rows/input-rounds.js';
import { LARGE_ROWS } from './rows/large.js';
import { longRows } from './rows/long.js';
import { PROGRESS_ROWS } from './rows/progress.js';
import { REISSUE_ROWS, RESUME_ROWS } from './rows/resume.js';
import type { ClientRow } from './vocabulary.js';

const byId = (rows: readonly ClientRow[], id: string): ClientRow => {
  const row = rows.find((r) => r.id === id);
  if (!row) throw new Error(`client-check row ${id} is not declared`);
  return row;
};

/** The client check's rows, in the order the report lists them (the issue's). */
export const CLIENT_ROWS: readonly ClientRow[] = [
  ...FRAME_ROWS,
  ...LARGE_ROWS,
  ...PROGRESS_ROWS,
  byId(FAILURE_ROWS, 'http-5xx'),
  ...CANCEL_ROWS,
  byId(FAILURE_ROWS, 'stream-ends-no-response'),
  byId(FAILURE_ROWS, 'session-404'),
  ...RESUME_ROWS,
  ...REISSUE_ROWS,
  ...INPUT_ROUND_ROWS,
  ...GET_FLAP_ROWS,
  ...longRows(),
];
