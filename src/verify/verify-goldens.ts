import { availableParallelism } from 'node:os';
import { GoldenError, isGoldenError } from '../errors.js';
import { argumentRejection } from '../record/argument-error.js';
import { describeTarget } from '../record/open-target.js';
import { type RecordOptions, type RecordTarget, recordCall } from '../record/record-call.js';
import type { Scenario } from '../record/scenario.js';
import { scenarioOfGolden } from '../record/scenario-of-golden.js';
import { readGolden, writeGolden } from '../store/golden-file.js';
import type { Transcript, TranscriptHeader } from '../transcript/frame.js';
import { type GoldenNotes, goldenNotes } from '../transcript/golden-notes.js';
import { keepRecordedTimes } from '../transcript/keep-recorded-times.js';
import { readToolCall } from '../transcript/read-calls.js';
import { compileVolatile, mergeVolatile, parseVolatile, type VolatileOptions } from '../transcript/volatile.js';
import { compareSessions } from './compare-session.js';
import type { Difference } from './json-difference.js';
import { classifyProtocolError } from './protocol-errors.js';
import type { SchemaChange } from './schema-drift.js';

/** Options of {@link verifyGoldens}. */
export interface VerifyOptions {
  /** The live server: a URL (with headers) or a stdio command, as `recordCall` takes it. */
  readonly target: RecordTarget;
  /** Ignores and masks for every golden (config and command line). @default {} */
  readonly volatile?: VolatileOptions;
  /** Ignores and masks for one golden (the config's per-golden entries), by file path. */
  readonly volatileFor?: (file: string) => VolatileOptions | undefined;
  /** `breaking`: compatible tool-schema changes are reported but pass. @default 'any' */
  readonly failOn?: 'any' | 'breaking';
  /** Rewrite, atomically, every golden that differs with what the server sent now. @default false */
  readonly update?: boolean;
  /** Goldens verified at once. @default the number of cores */
  readonly concurrency?: number;
  /** Redaction and fetch for the re-recorded sessions (secrets of the target). */
  readonly record?: RecordOptions;
  /** Removes secrets from text written into a rewritten golden's header (the target as given). */
  readonly redactText?: (text: string) => string;
  /** Called once per golden, in the goldens' order, as soon as it and every golden before it finished. */
  readonly onVerdict?: (verdict: GoldenVerdict, index: number) => void;
}

/** The verdict on one golden. */
export interface GoldenVerdict {
  readonly file: string;
  readonly pass: boolean;
  /** Whether anything differed (a compatible schema change under `--fail-on breaking` passes but differs). */
  readonly differs: boolean;
  readonly ms: number;
  readonly differences: readonly Difference[];
  readonly schemaChanges: readonly SchemaChange[];
  /** The ignores and masks it was verified with. */
  readonly volatile: VolatileOptions;
  /** The session could not be run: the error message (no golden is rewritten then). */
  readonly error?: string;
  /** `--update` rewrote this golden. */
  readonly rewritten: boolean;
  /** The server now refuses the call (tool removed, arguments invalid): compared, never rewritten. */
  readonly refused?: string;
}

interface Prepared {
  readonly file: string;
  readonly golden: Transcript;
  readonly scenario: Scenario;
}

/** Ignores and masks recorded in a golden's header (`notes.volatile`), by `record` or `verify --update`. */
export function recordedVolatile(golden: Transcript, file: string): VolatileOptions {
  return parseVolatile(goldenNotes(golden.header).volatile, `in the header of golden "${file}"`);
}

/**
 * Reads every golden and the scenario it was recorded from, before anything runs: a golden that
 * cannot be read or names no scenario is a usage error naming it and the command that re-records it.
 */
export async function prepareGoldens(files: readonly string[]): Promise<Prepared[]> {
  return Promise.all(
    files.map(async (file) => {
      let golden: Transcript;
      try {
        golden = await readGolden(file);
      } catch (error) {
        // Nothing has run yet: an unreadable golden is bad input, reported before any session starts.
        if (isGoldenError(error)) throw new GoldenError('E_USAGE', error.message, { cause: error });
        throw error;
      }
      try {
        return { file, golden, scenario: scenarioOfGolden(golden) };
      } catch (error) {
        throw new GoldenError(
          'E_USAGE',
          `Cannot verify golden "${file}": it has no recorded scenario (${(error as Error).message}) Expected a golden written by \`mcp-golden record\` with a tools/call. Re-record it with \`npx mcp-golden record --stdio '<server command>' --scenarios <scenarios.json> --out <dir>\` (or --target <url>).`,
        );
      }
    }),
  );
}

/** Whether the golden's own call was answered with a refusal of its arguments. */
function recordedRefusal(golden: Transcript): boolean {
  const response = readToolCall(golden).response?.message;
  return response !== undefined && argumentRejection(response) !== undefined;
}

/**
 * The header an update writes: the golden's, as `record` wrote it (target, scenario, tool, arguments
 * and the notes of the scenario it was recorded from, which the re-run scenario was rebuilt from),
 * with what the run itself found: the era and version it spoke, the recorder, its input rounds, and
 * the ignores and masks it was compared with. So an update with the same server changes no header
 * line (the re-run's own notes would add `era` and `requestId`, and drop an era probe's note).
 */
export function updatedHeader(
  golden: TranscriptHeader,
  live: TranscriptHeader,
  volatile: VolatileOptions,
): TranscriptHeader {
  const { inputRounds: _rounds, ...notes }: GoldenNotes = goldenNotes(golden);
  const { inputRounds } = goldenNotes(live);
  if (inputRounds !== undefined) notes.inputRounds = inputRounds;
  if ((volatile.ignore?.length ?? 0) + (volatile.mask?.length ?? 0) > 0)
    notes.volatile = volatile as GoldenNotes['volatile'];
  const { era, protocolVersion, recorder } = live;
  return { ...golden, ...(era !== undefined && { era }), protocolVersion, recorder, notes };
}

async function verifyOne(item: Prepared, options: VerifyOptions): Promise<GoldenVerdict> {
  const started = performance.now();
  const volatile = mergeVolatile(
    options.volatile,
    options.volatileFor?.(item.file),
    recordedVolatile(item.golden, item.file),
  );
  const base = { file: item.file, volatile, rewritten: false, schemaChanges: [] };
  let live: Transcript;
  let refused: string | undefined;
  try {
    try {
      live = await recordCall(options.target, item.scenario, options.record);
    } catch (error) {
      // The server no longer lists the tool, or refuses the recorded arguments: that is drift to
      // compare (a removed tool is breaking), so run the session again taking the error as the answer.
      if (!isGoldenError(error, 'E_UNKNOWN_TOOL') && !isGoldenError(error, 'E_ARGUMENTS')) throw error;
      // A golden that recorded this refusal itself (before record required expectError for one) is no drift.
      if (error.code === 'E_UNKNOWN_TOOL') refused = `the server no longer has tool "${item.scenario.tool}"`;
      else if (!recordedRefusal(item.golden)) refused = 'the server now refuses the recorded arguments';
      live = await recordCall(options.target, { ...item.scenario, expectError: true }, options.record);
    }
  } catch (error) {
    const why = isGoldenError(error) ? error.message : `unexpected error: ${(error as Error).message}`;
    const protocol = classifyProtocolError(why);
    const message = `Could not run the session of "${item.file}" against ${describeTarget(options.target)}: ${why}${protocol ? ` That is ${protocol}` : ''}`;
    return {
      ...base,
      pass: false,
      differs: true,
      ms: Math.round(performance.now() - started),
      differences: [{ where: 'session', path: '', kind: 'error', message }],
      error: message,
    };
  }
  const verdict = compareSessions(item.golden, live, {
    volatile: compileVolatile(volatile, `for golden "${item.file}"`),
    ...(options.failOn !== undefined && { failOn: options.failOn }),
    ...(item.scenario.cancelAfter !== undefined && { cancelAfter: item.scenario.cancelAfter }),
  });
  const differs = verdict.differences.length > 0;
  let rewritten = false;
  // A call the server now refuses is not rewritten: the golden would record an error nobody asked for.
  if (differs && options.update && refused === undefined) {
    const header = updatedHeader(item.golden.header, live.header, volatile);
    const target = options.redactText ? options.redactText(header.target) : header.target;
    const next = { header: { ...header, target }, frames: live.frames };
    await writeGolden(item.file, keepRecordedTimes(item.golden, next));
    rewritten = true;
  }
  return {
    ...base,
    pass: verdict.pass || rewritten,
    differs,
    ms: Math.round(performance.now() - started),
    differences: verdict.differences,
    schemaChanges: verdict.schemaChanges,
    rewritten,
    ...(refused !== undefined && { refused }),
  };
}

/**
 * Re-runs, against the live server, the client session each golden was recorded from, and
 * compares what the server sends now with the golden. Verdicts come back in the goldens' order;
 * `onVerdict` reports each as soon as it and the ones before it are done. A golden is rewritten
 * only with `update` and only when it differs; a session that fails to run never touches its golden.
 *
 * @example
 * const verdicts = await verifyGoldens(['goldens/search.jsonl'], { target: { command: 'node', args: ['dist/server.js'] } })
 * process.exitCode = verdicts.every((v) => v.pass) ? 0 : 1
 */
export async function verifyGoldens(files: readonly string[], options: VerifyOptions): Promise<GoldenVerdict[]> {
  if (files.length === 0) {
    throw new GoldenError('E_USAGE', 'No goldens to verify. Name golden files or directories holding *.jsonl files.');
  }
  compileVolatile(options.volatile, 'given to verify');
  const prepared = await prepareGoldens(files);
  const limit = Math.max(1, Math.min(options.concurrency ?? availableParallelism(), prepared.length));
  const verdicts: (GoldenVerdict | undefined)[] = new Array(prepared.length);
  let next = 0;
  let reported = 0;
  const worker = async (): Promise<void> => {
    while (next < prepared.length) {
      const index = next++;
      verdicts[index] = await verifyOne(prepared[index] as Prepared, options);
      while (reported < prepared.length && verdicts[reported]) {
        options.onVerdict?.(verdicts[reported] as GoldenVerdict, reported);
        reported++;
      }
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return verdicts as GoldenVerdict[];
}
