import * as z from 'zod';
import { GoldenError } from '../errors.js';

/**
 * The header's `notes`, said once: the keys the recorder writes and `verify`, `lint`, the replay
 * and the timeline read, each typed and documented. `notes` stays the golden's extension point: a
 * key not named here is allowed and kept as written. The reader (`parseTranscript`) validates the
 * named keys and the published `golden.schema.json` documents them; both come from this schema.
 */

const whole = (expected: string) =>
  z.int({ error: expected }).min(0, { error: expected }).max(Number.MAX_SAFE_INTEGER, { error: expected });
const id = z.union([z.string(), z.int()], { error: 'a string or a whole number' });
const object = z.record(z.string(), z.unknown(), { error: 'an object' });
const strings = z.array(z.string({ error: 'a string' }), { error: 'an array of strings' });

/** Schema of the header's `notes`: typed keys, any other key allowed. */
export const GoldenNotesSchema = z.looseObject(
  {
    description: z.string({ error: 'a string' }).optional().meta({ description: "The scenario's description." }),
    progressToken: id.optional().meta({ description: 'The `_meta.progressToken` the scenario sent, verbatim.' }),
    requestId: id.optional().meta({ description: 'The JSON-RPC id of the scenario’s tools/call.' }),
    cancelAfter: whole('a whole number >= 0').optional().meta({
      description: 'The client cancelled the call after this many progress notifications.',
    }),
    dropAfter: whole('a whole number >= 0').optional().meta({
      description: 'The client dropped the stream after this many progress notifications and resumed it.',
    }),
    expectError: z
      .boolean({ error: 'true or false' })
      .optional()
      .meta({ description: 'The call was expected to fail: its error is the recording.' }),
    era: z.enum(['legacy', 'modern', 'auto'], { error: '"legacy", "modern" or "auto"' }).optional().meta({
      description: "The era the scenario asked for (the header's `era` is the one recorded).",
    }),
    server: object.optional().meta({
      description: "The scenario's reference server switches (as in scenario.schema.json).",
    }),
    answers: z
      .record(z.string(), object, { error: 'an object from a request method to a result object' })
      .optional()
      .meta({ description: "Results the client answered the server's requests with, by method." }),
    steps: z
      .array(object, { error: 'an array of step objects' })
      .optional()
      .meta({ description: "A session's steps, as in scenario.schema.json; `verify` re-runs every one of them." }),
    volatile: z
      .object({ ignore: strings.optional(), mask: strings.optional() }, { error: 'an object' })
      .optional()
      .meta({
        description:
          'What `verify` leaves out of the comparison of this golden: `ignore` (JSONPaths) and `mask` (patterns, `iso-time`, `uuid`).',
      }),
    lint: z
      .record(z.string(), z.string({ error: 'a string' }), { error: 'an object of rule id → reason' })
      .optional()
      .meta({ description: 'Lint rules this recording is a deliberate exception to: rule id → the reason.' }),
    eraProbe: z.string({ error: 'a string' }).optional().meta({
      description: 'Why an era-auto probe recorded the legacy era (the probe’s exchange is left out).',
    }),
    inputRounds: whole('a whole number >= 0')
      .optional()
      .meta({ description: 'input_required rounds the modern client answered before the result.' }),
    recordedBy: z
      .string({ error: 'a string' })
      .optional()
      .meta({ description: 'What recorded a session that no scenario describes, e.g. "recording proxy".' }),
    reference: z.boolean({ error: 'true or false' }).optional().meta({
      description:
        "true: recorded from mcp-golden's own reference server, so its scenario name alone records it again.",
    }),
  },
  { error: 'an object' },
);

/** The header's `notes`: the typed keys of {@link GoldenNotesSchema}, and any other key. */
export type GoldenNotes = z.infer<typeof GoldenNotesSchema>;

/** A value as error messages quote it: JSON, cut at 60 characters. */
export const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/** The value at `path` inside `root`, for error messages. */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) value = (value as Record<PropertyKey, unknown> | undefined)?.[key];
  return value;
}

/**
 * The header's notes, typed: every reader asks here. A header that came through the reader is
 * already checked; one built in code (or by a JavaScript caller) is checked now, and a key of the
 * wrong type is an `E_GOLDEN_PARSE` error naming it, what it holds and what is expected.
 *
 * @example
 * goldenNotes(golden.header).cancelAfter // number | undefined
 */
export function goldenNotes(header: { readonly notes?: unknown }): GoldenNotes {
  if (header.notes === undefined) return {};
  const problem = notesProblem(header.notes);
  if (problem === undefined) return header.notes as GoldenNotes;
  throw new GoldenError(
    'E_GOLDEN_PARSE',
    `Invalid ${problem.key} in the golden header: expected ${problem.expected}, got ${problem.got}. Fix the header's notes or record the golden again.`,
  );
}

/** The first thing wrong with `notes` as a header's notes: the key, what is expected, what it holds. */
export function notesProblem(notes: unknown): { key: string; expected: string; got: string } | undefined {
  const result = GoldenNotesSchema.safeParse(notes);
  if (result.success) return undefined;
  const issue = result.error.issues[0] as z.core.$ZodIssue;
  const key = ['notes', ...issue.path.map(String)].join('.');
  return { key, expected: issue.message, got: shown(valueAt(notes, issue.path)) };
}
