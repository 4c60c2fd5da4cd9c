import * as z from 'zod';
import { GoldenError } from '../errors.js';

const id = z.union([z.string(), z.int().refine(Number.isSafeInteger, 'a safe integer')]);
const count = z.int().min(1);
const object = z.record(z.string(), z.unknown());

/** A `tools/call` step: the fields of a plain scenario's call. */
export const CallStepSchema = z
  .strictObject({
    tool: z.string().min(1).meta({ description: 'Tool to call.' }),
    arguments: object.optional().meta({ description: 'Tool arguments.' }),
    progressToken: id.optional().meta({ description: '`_meta.progressToken` to send, verbatim.' }),
    requestId: id.optional().meta({ description: 'JSON-RPC id of the request.' }),
    cancelAfter: count.optional().meta({ description: 'Cancel after this many progress notifications.' }),
    dropAfter: count
      .optional()
      .meta({ description: 'Drop the stream after this many progress notifications and resume.' }),
    expectError: z.boolean().optional().meta({ description: 'The call is expected to fail.' }),
  })
  .refine(
    (step) => (step.cancelAfter === undefined && step.dropAfter === undefined) || step.progressToken !== undefined,
    {
      message: '"cancelAfter" and "dropAfter" count progress notifications, so they need a "progressToken"',
    },
  );

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
  .strictObject({
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, ".", "-" and "_"')
      .optional(),
    description: z.string().optional(),
    steps: z.array(ScenarioStepSchema).min(1).meta({ description: 'Requests after the handshake, in order.' }),
    transport: z.enum(['http', 'stdio']).optional(),
    server: object.optional(),
    protocolVersion: z.string().optional(),
    timeoutMs: count.optional(),
    answers: z.record(z.string(), object).optional(),
    ignore: z.array(z.string()).optional(),
    mask: z.array(z.string()).optional(),
    lint: z.record(z.string(), z.string()).optional(),
  })
  .refine(
    (s) => s.transport !== 'stdio' || s.steps.every((step) => !('dropAfter' in step) || step.dropAfter === undefined),
    {
      message: '"dropAfter" needs the http transport',
    },
  )
  .refine((s) => s.steps.some((step) => 'tool' in step), {
    message:
      'a session needs at least one step with "tool": its golden is named after a call, and lint and verify judge it',
  });

/** One step of a session scenario. */
export type ScenarioStep = z.infer<typeof ScenarioStepSchema>;
/** A call step. */
export type CallStep = z.infer<typeof CallStepSchema>;

/** True for a call step. */
export const isCallStep = (step: ScenarioStep): step is CallStep => 'tool' in step;

/** The published JSON Schema of a session scenario, from the zod declaration. */
export function sessionScenarioJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(SessionScenarioSchema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
}

/** Checks a session scenario, naming the source and the field on error (`E_SCENARIO`). */
export function parseSessionScenario(value: unknown, where: string): z.infer<typeof SessionScenarioSchema> {
  const parsed = SessionScenarioSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('') ?? '';
  throw new GoldenError(
    'E_SCENARIO',
    `Invalid scenario ${where}: ${path ? `"${path.replace(/^\./, '')}": ` : ''}${issue?.message ?? 'not a session'}.`,
  );
}
