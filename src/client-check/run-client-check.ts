import { GoldenError } from '../errors.js';
import { CLIENT_ROWS } from './rows.js';
import { runRow } from './run-row.js';
import { rowTimeline } from './timeline.js';
import type { ClientCheckReport, ClientRow, ClientRowResult, Era, RowRun } from './vocabulary.js';

/** Options of {@link runClientCheck}. */
export interface ClientCheckOptions {
  /** The client command, run by `/bin/sh -c`; `{url}` becomes the MCP endpoint URL, else it is appended. */
  readonly command: string;
  /** The eras the client must speak. @default both */
  readonly eras?: readonly Era[];
  /** Run only the rows whose id contains one of these. */
  readonly only?: readonly string[];
  /** Also run the `--long` rows. @default false */
  readonly long?: boolean;
  /** Rows run at once (each has its own server and client). @default 6 */
  readonly concurrency?: number;
  /** The rows to run. @default the client check's rows */
  readonly rows?: readonly ClientRow[];
  /** Told when a row starts and when it is judged. */
  readonly onProgress?: (event: { readonly id: string; readonly era: Era; readonly result?: ClientRowResult }) => void;
}

/** The shell could not run the client command: nothing was judged (`check` exits 3 with this message and no rows). */
export class ClientSetupError extends Error {
  override readonly name = 'ClientSetupError';
}

const ERAS: readonly Era[] = ['legacy', 'modern'];

/** A row's run turned into its result; a judge that throws is a failure with the error, never a crash. */
function resultOf(row: ClientRow, run: RowRun): ClientRowResult {
  let judged: ReturnType<ClientRow['judge']>;
  try {
    judged = row.judge(run);
  } catch (error) {
    judged = { verdict: 'fail', evidence: `the row could not judge: ${(error as Error).message}` };
  }
  const ms = Math.round((run.exit?.at ?? Date.now()) - run.startedAt);
  return {
    property: row.id,
    era: run.era,
    verdict: judged.verdict,
    evidence: judged.evidence,
    numbers: judged.numbers ?? {},
    ms,
    timeline: rowTimeline(run),
  };
}

/**
 * The first row's client that never started as a client, as a setup error, or `undefined`: the shell
 * refused it (exit 126 or 127), or it exited before it sent the row's server any request or printed a
 * contract line (`node nosuch.mjs` exits 1 with MODULE_NOT_FOUND). No row can judge such a client.
 */
function startRefusal(run: RowRun, command: string): ClientSetupError | undefined {
  if (run.exit === undefined || run.lines.length > 0) return undefined;
  const { code, signal } = run.exit;
  const shell = code === 126 || code === 127;
  if (!shell && run.audit.length > 0) return undefined;
  const ended = code !== null ? `exited ${code}` : `was stopped by ${signal}`;
  const said = run.stderr.trim() || 'nothing on stderr';
  const what = shell
    ? `the shell ${ended}`
    : `the client ${ended} before it sent any request or printed a contract line`;
  return new ClientSetupError(
    `Could not run the client command: ${what} (${said}). Expected a command that connects to the URL and prints the contract's JSON lines. Check the command in --client ${JSON.stringify(command)} (the path, and that the file is executable), or run it by hand with the URL as its last argument.`,
  );
}

/**
 * Judges a client: each row in each era it applies to, with its own fault-injecting replay and its
 * own client process. The first row runs alone (a client that never starts is a setup error,
 * {@link ClientSetupError}); the others run `concurrency` at a time, the slowest first.
 */
export async function runClientCheck(options: ClientCheckOptions): Promise<ClientCheckReport> {
  const started = Date.now();
  const eras = options.eras ?? ERAS;
  const only = options.only ?? [];
  const rows = (options.rows ?? CLIENT_ROWS).filter(
    (row) => (options.long || !row.long) && (only.length === 0 || only.some((text) => row.id.includes(text))),
  );
  const jobs = rows.flatMap((row) => eras.filter((era) => row.eras.includes(era)).map((era) => ({ row, era })));
  if (jobs.length === 0) {
    const ids = [...new Set((options.rows ?? CLIENT_ROWS).map((row) => row.id))].join(', ');
    throw new GoldenError(
      'E_USAGE',
      `No row of the client check matches --only ${only.map((text) => JSON.stringify(text)).join(', ')} in era(s) ${eras.join(', ')}. Expected part of a row id: ${ids}.`,
    );
  }
  const results = new Map<(typeof jobs)[number], ClientRowResult>();
  const run = async (job: (typeof jobs)[number]): Promise<RowRun> => {
    options.onProgress?.({ id: job.row.id, era: job.era });
    const outcome = await runRow(job.row, job.era, options.command);
    const result = resultOf(job.row, outcome);
    results.set(job, result);
    options.onProgress?.({ id: job.row.id, era: job.era, result });
    return outcome;
  };
  const [first, ...rest] = jobs;
  if (first) {
    const outcome = await run(first);
    const refusal = startRefusal(outcome, options.command);
    if (refusal) throw refusal;
  }
  // The longest rows start first, so their waits overlap the short ones.
  const queue = [...rest].sort((a, b) => b.row.budgetMs - a.row.budgetMs);
  const workers = Array.from({ length: Math.max(1, options.concurrency ?? 6) }, async () => {
    for (let job = queue.shift(); job; job = queue.shift()) await run(job);
  });
  await Promise.all(workers);
  const ordered = jobs.flatMap((job) => results.get(job) ?? []);
  return {
    client: options.command,
    eras,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    pass: ordered.every((r) => r.verdict !== 'fail'),
    results: ordered,
    ...(only.length > 0 && { only }),
  };
}
