import * as z from 'zod';
import { GoldenError } from '../errors.js';

const ID_ERROR = 'must be a string or a safe integer';
const id = z.union([z.string(), z.int().refine(Number.isSafeInteger, ID_ERROR)], { error: ID_ERROR });
const COUNT_ERROR = 'must be a whole number >= 1';
const count = z.int({ error: COUNT_ERROR }).min(1, COUNT_ERROR);
const object = z.record(z.string(), z.unknown(), { error: 'must be an object' });

const CALL_FIELDS = {
  tool: z.string({ error: 'a non-empty string' }).min(1, 'a non-empty string').meta({ description: 'Tool to call.' }),
  arguments: object.optional().meta({ description: 'Tool arguments.' }),
  progressToken: id.optional().meta({ description: '`_meta.progressToken` to send, verbatim (string or number).' }),
  requestId: id.optional().meta({ description: 'JSON-RPC id of the request.' }),
  cancelAfter: count.optional().meta({
    description:
      'Send notifications/cancelled after this many progress notifications (2026-07-28 over HTTP: close the stream). On a call answered with a task (tasks extension): send tasks/cancel after this many tasks/get polls found it running.',
  }),
  dropAfter: count
    .optional()
    .meta({ description: 'Drop the stream after this many progress notifications and resume with Last-Event-ID.' }),
  expectError: z.boolean({ error: 'true or false' }).optional().meta({ description: 'The call is expected to fail.' }),
  task: object.optional().meta({
    description:
      'Task-augment the call in the 2025-11-25 era (experimental tasks): sent as params.task (e.g. {"ttl": 60000}); the recorder then polls tasks/get and fetches tasks/result.',
  }),
};

const TOKEN_RULE = {
  message: '"cancelAfter" and "dropAfter" count progress notifications, so they need a "progressToken"',
};
const needsToken = (call: {
  cancelAfter?: number | undefined;
  dropAfter?: number | undefined;
  progressToken?: unknown;
}) => (call.cancelAfter === undefined && call.dropAfter === undefined) || call.progressToken !== undefined;

/** Names the fields a strict object knows when it meets another. */
const unknownKeys = (known: readonly string[]) => ({
  error: (issue: { code?: string; keys?: readonly string[] }) =>
    issue.code === 'unrecognized_keys'
      ? `unknown field ${(issue.keys ?? []).map((k) => `"${k}"`).join(', ')}; expected one of ${known.join(', ')}`
      : undefined,
});

/** A `tools/call` step: the fields of a plain scenario's call. */
export const CallStepSchema = z
  .strictObject(CALL_FIELDS, unknownKeys(Object.keys(CALL_FIELDS)))
  .refine(needsToken, TOKEN_RULE);

/** The fields of a scenario that hold for its whole session. */
const SESSION_FIELDS = {
  name: z
    .string({ error: 'a string' })
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must use only letters, digits, ".", "-" and "_"')
    .optional()
    .meta({ description: 'Golden file name (without `.jsonl`).' }),
  description: z.string({ error: 'a string' }).optional(),
  transport: z.enum(['http', 'stdio'], { error: '"http" or "stdio"' }).optional(),
  server: object.optional().meta({ description: 'Reference server switches used by `mcp-golden record`.' }),
  era: z.enum(['legacy', 'modern', 'auto'], { error: '"legacy", "modern" or "auto"' }).optional().meta({
    description: 'Protocol era: legacy (2025-11-25), modern (2026-07-28) or auto (probe, fall back to legacy).',
  }),
  protocolVersion: z.string({ error: 'a string' }).optional(),
  timeoutMs: count.optional().meta({ description: 'Longest wait for any one message, in ms.' }),
  answers: z
    .record(z.string(), object, { error: 'an object from a request method to the result object to answer with' })
    .optional()
    .meta({ description: "Results the recorder answers the server's requests with, by method." }),
  ignore: z.array(z.string()).optional().meta({ description: 'JSONPaths `verify` does not compare.' }),
  mask: z.array(z.string()).optional().meta({ description: 'Patterns (or `iso-time`, `uuid`) `verify` masks.' }),
  lint: z
    .record(z.string(), z.string(), { error: 'an object of rule id → reason (a string)' })
    .optional()
    .meta({ description: 'Lint rules this recording is a deliberate exception to, each with the reason.' }),
};

const HTTP_RULE = { message: '"dropAfter" needs the http transport' };

/** A plain scenario: one call with the session-wide fields. */
export const PlainScenarioSchema = z
  .strictObject(
    { ...SESSION_FIELDS, ...CALL_FIELDS },
    unknownKeys([...Object.keys(SESSION_FIELDS), ...Object.keys(CALL_FIELDS)]),
  )
  .refine(needsToken, TOKEN_RULE)
  .refine((s) => s.dropAfter === undefined || s.transport !== 'stdio', HTTP_RULE);

/** Any other request of a session (`resources/read`, `prompts/get`, `completion/complete`, ...). */
export const RequestStepSchema = z.strictObject({
  method: z
    .string()
    .min(1)
    .refine((m) => m !== 'initialize' && m !== 'tools/call', {
      message: 'the session sends initialize itself, and a tools/call is a step with "tool"',
    })
    .meta({ description: 'JSON-RPC method.' }),
  params: object.optional().meta({ description: 'Request params, sent as written.' }),
  requestId: id.optional().meta({ description: 'JSON-RPC id of the request.' }),
});

/** One step of a session. */
export const ScenarioStepSchema = z.union([CallStepSchema, RequestStepSchema]);

/**
 * A scenario as a session: the handshake, then `steps` in order, each a call or any request. The
 * session-wide fields are those of a plain scenario; `dropAfter` needs the http transport.
 */
export const SessionScenarioSchema = z
  .strictObject(
    {
      ...SESSION_FIELDS,
      steps: z.array(ScenarioStepSchema).min(1).meta({ description: 'Requests after the handshake, in order.' }),
    },
    unknownKeys([...Object.keys(SESSION_FIELDS), 'steps']),
  )
  .refine(
    (s) => s.transport !== 'stdio' || s.steps.every((step) => !('dropAfter' in step) || step.dropAfter === undefined),
    HTTP_RULE,
  )
  .refine((s) => s.steps.some((step) => 'tool' in step), {
    message:
      'a session needs at least one step with "tool": its golden is named after a call, and lint and verify judge it',
  });

/** A scenario as a user writes it: one call, or a session of steps. */
export const ScenarioSchema = z.union([PlainScenarioSchema, SessionScenarioSchema]);

/** One step of a session scenario. */
export type ScenarioStep = z.infer<typeof ScenarioStepSchema>;
/** A call step. */
export type CallStep = z.infer<typeof CallStepSchema>;

/** True for a call step. */
export const isCallStep = (step: ScenarioStep): step is CallStep => 'tool' in step;

/** The published JSON Schema of a scenario (plain or session), from the zod declaration. */
export function sessionScenarioJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ScenarioSchema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
}

/** Checks a scenario against one of its shapes, naming the source and the field on error (`E_SCENARIO`). */
function parseWith<T extends z.ZodType>(schema: T, value: unknown, where: string): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('') ?? '';
  throw new GoldenError(
    'E_SCENARIO',
    `Invalid scenario ${where}: ${path ? `"${path.replace(/^\./, '')}": ` : ''}${issue?.message ?? 'not a session'}.`,
  );
}

/** Checks a session scenario (`E_SCENARIO`). */
export const parseSessionScenario = (value: unknown, where: string): z.infer<typeof SessionScenarioSchema> =>
  parseWith(SessionScenarioSchema, value, where);

/** Checks a plain scenario (`E_SCENARIO`). */
export const parsePlainScenario = (value: unknown, where: string): z.infer<typeof PlainScenarioSchema> =>
  parseWith(PlainScenarioSchema, value, where);
