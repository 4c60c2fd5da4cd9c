import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { GoldenError } from '../errors.js';
import { sleep, type ToolContext } from './reference-tools.js';
import { type IntegerArgument, parseIntegerArguments, toJsonSchema } from './tool-arguments.js';

/** A tool served only when the reference server runs with `checkTools` (the gateway check's upstream). */
export interface CheckTool {
  readonly definition: Tool;
  run(args: Record<string, number>, ctx: ToolContext): Promise<CallToolResult>;
  parse(raw: unknown): Record<string, number>;
}

const TAG = {
  type: 'string',
  maxLength: 200,
  description: 'Free text recorded in the audit log, so a caller can find its call whatever a gateway did to ids.',
  // 2026-07-28: a modern client sends it as the Mcp-Param-Tag header too (base64 when not ASCII).
  'x-mcp-header': 'Tag',
};

/** Strips the optional string `tag` (kept in the audit row as part of the arguments), then checks the integers. */
function parseTagged(tool: string, specs: readonly IntegerArgument[], raw: unknown): Record<string, number> {
  if (raw && typeof raw === 'object' && !Array.isArray(raw) && 'tag' in raw) {
    const { tag, ...rest } = raw as Record<string, unknown>;
    if (typeof tag !== 'string' || tag.length > 200) {
      throw new GoldenError(
        'E_ARGUMENTS',
        `Invalid arguments for tool "${tool}": "tag" must be a string of at most 200 characters, got ${JSON.stringify(tag)}.`,
      );
    }
    return parseIntegerArguments(tool, specs, rest);
  }
  return parseIntegerArguments(tool, specs, raw);
}

function schema(args: readonly IntegerArgument[]): Tool['inputSchema'] {
  const base = toJsonSchema(args);
  return { ...base, properties: { ...base.properties, tag: TAG } };
}

const TIGHT_ARGS: readonly IntegerArgument[] = [
  { name: 'steps', minimum: 1, maximum: 1000, default: 5, description: 'Number of progress notifications.' },
  {
    name: 'step_ms',
    minimum: 0,
    maximum: 10_000,
    default: 20,
    description: 'Milliseconds slept between notifications; 0 sends them all at once (a burst).',
  },
  {
    name: 'message_chars',
    minimum: 0,
    maximum: 65536,
    default: 0,
    description: 'Pad each notification message with "~" to this length (0: no padding), to load a slow reader.',
  },
];

/**
 * `progress_tight`: like `progress`, but the result follows the final notification at once, in
 * the same write (the transport holds the call's writes from the final notification to the end
 * of that turn): the case in which a gateway that loses "the last progress before the result"
 * shows it, whatever the load on the machine.
 */
const progressTight: CheckTool = {
  definition: {
    name: 'progress_tight',
    description:
      'Sends notifications/progress 1..steps (step_ms apart; 0 = a burst), then the result immediately after the final one.',
    inputSchema: schema(TIGHT_ARGS),
  },
  parse: (raw) => parseTagged('progress_tight', TIGHT_ARGS, raw),
  async run({ steps = 5, step_ms = 20, message_chars = 0 }, ctx) {
    const notified = ctx.progressToken !== undefined;
    for (let i = 1; i <= steps; i++) {
      if (ctx.signal.aborted) break;
      if (i === steps) ctx.holdWrites?.();
      if (notified) await ctx.sendProgress(i, steps, `step ${i}/${steps}`.padEnd(message_chars, '~'));
      if (ctx.signal.aborted) break;
      ctx.onStep(i);
      if (i < steps && step_ms > 0 && !(await sleep(step_ms, ctx.signal))) break;
    }
    const structured = { steps, notified, done: true };
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  },
};

/** 1-, 2-, 3- and 4-byte UTF-8 sequences in a 10-byte cycle, so any read boundary splits one 6 times in 10. */
export const MULTIBYTE_FILLER = 'aé€😀';

/** Text of `multibyte_output` block `n`: `"[block n] "` then the filler repeated, exactly `chars` code points. */
export function multibyteBlock(n: number, chars: number): string {
  const prefix = [...`[block ${n}] `];
  const filler = [...MULTIBYTE_FILLER];
  const out = prefix.slice(0, chars);
  for (let i = 0; out.length < chars; i++) out.push(filler[i % filler.length] as string);
  return out.join('');
}

const MULTIBYTE_ARGS: readonly IntegerArgument[] = [
  { name: 'blocks', minimum: 1, maximum: 50, default: 3, description: 'Number of text content blocks.' },
  {
    name: 'chars',
    minimum: 1,
    maximum: 65536,
    default: 256,
    description: 'Exact length of each block in code points (about 2.5 bytes each in UTF-8).',
  },
];

/** `multibyte_output`: `long_output` with 2-, 3- and 4-byte characters, for decoders that split them. */
const multibyteOutput: CheckTool = {
  definition: {
    name: 'multibyte_output',
    description: `Returns \`blocks\` text items; item n is "[block n] " followed by "${MULTIBYTE_FILLER}" repeated, cut to exactly \`chars\` code points.`,
    inputSchema: schema(MULTIBYTE_ARGS),
  },
  parse: (raw) => parseTagged('multibyte_output', MULTIBYTE_ARGS, raw),
  async run({ blocks = 3, chars = 256 }) {
    return {
      content: Array.from({ length: blocks }, (_, n) => ({ type: 'text' as const, text: multibyteBlock(n, chars) })),
    };
  },
};

/** Name of the check tool that runs as a task (`resultType: "task"`) for a client declaring the tasks extension. */
export const TASK_TOOL = 'task_steps';

const TASK_ARGS: readonly IntegerArgument[] = [
  { name: 'steps', minimum: 1, maximum: 100, default: 3, description: 'Number of steps.' },
  { name: 'step_ms', minimum: 1, maximum: 10_000, default: 100, description: 'Milliseconds each step takes.' },
  {
    name: 'poll_ms',
    minimum: 1,
    maximum: 60_000,
    default: 50,
    description: 'The pollIntervalMs the task suggests to the client.',
  },
];

/**
 * `task_steps`: `steps` steps of `step_ms`. To a 2026-07-28 client that declares the tasks extension
 * (`io.modelcontextprotocol/tasks`) it answers `resultType: "task"` at once and runs in the
 * background (status message `step i/steps`, no progress: the extension has none on tasks); to any
 * other client it runs in the call, with progress as `progress` sends it.
 */
const taskSteps: CheckTool = {
  definition: {
    name: TASK_TOOL,
    description:
      'Runs steps x step_ms; as a task (tasks extension declared, 2026-07-28) it answers resultType "task" and is polled with tasks/get.',
    inputSchema: schema(TASK_ARGS),
  },
  parse: (raw) => parseTagged(TASK_TOOL, TASK_ARGS, raw),
  async run({ steps = 3, step_ms = 100 }, ctx) {
    const notified = ctx.progressToken !== undefined;
    for (let i = 1; i <= steps; i++) {
      if (ctx.signal.aborted) break;
      await ctx.sendProgress(i, steps, `step ${i}/${steps}`);
      ctx.onStep(i);
      if (!(await sleep(step_ms, ctx.signal))) break;
    }
    const structured = { steps, notified, done: true };
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  },
};

/**
 * The opaque `requestState` `input_round` answers with: non-ASCII, JSON escapes, a line separator and
 * base64 padding characters, so a gateway that re-encodes the string rather than passing it on shows.
 */
export const ROUND_STATE = 'round-1 é🚀 "quoted" \\ / + = \u2028 end';

/** The embedded request of `input_round`'s `input_required` result, under key `confirm`. */
export const ROUND_REQUEST = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Go ahead? (mcp-golden check: é🚀)',
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  },
} as const;

/**
 * `input_round` (2026-07-28): answers `input_required` with {@link ROUND_REQUEST} and
 * {@link ROUND_STATE} until a retry carries `inputResponses.confirm`, then completes with what the
 * retry carried. The audit row keeps what each round received and the `input_required` it sent.
 */
const inputRound: CheckTool = {
  definition: {
    name: 'input_round',
    description:
      '2026-07-28 only: answers input_required (an elicitation keyed "confirm" and an opaque requestState) until the retry carries inputResponses.confirm, then returns what the retry carried.',
    inputSchema: schema([]),
  },
  parse: (raw) => parseTagged('input_round', [], raw),
  async run(_args, ctx) {
    if (!ctx.round) {
      return {
        content: [{ type: 'text', text: 'input_round needs the 2026-07-28 era: the 2025 era has no input_required' }],
        isError: true,
      };
    }
    const responses = ctx.round.inputResponses;
    const answered = typeof responses === 'object' && responses !== null && 'confirm' in responses;
    if (!answered) {
      const asked = {
        resultType: 'input_required',
        inputRequests: { confirm: structuredClone(ROUND_REQUEST) },
        requestState: ROUND_STATE,
      };
      return asked as unknown as CallToolResult;
    }
    const structured = { inputResponses: responses, requestState: ctx.round.requestState ?? null };
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  },
};

const SILENT_ARGS: readonly IntegerArgument[] = [
  {
    name: 'silent_ms',
    minimum: 0,
    maximum: 600_000,
    default: 1000,
    description: 'Milliseconds the call sends nothing at all before its result.',
  },
];

/**
 * `silent_result`: sends nothing for `silent_ms`, then its result. A 2026-07-28 upstream then sends
 * no response headers until the result (a JSON body, as `auto` response mode does without a
 * notification): what a gateway's idle timeout meets.
 */
const silentResult: CheckTool = {
  definition: {
    name: 'silent_result',
    description: 'Sends nothing (no progress, no headers in the 2026-07-28 era) for silent_ms, then its result.',
    inputSchema: schema(SILENT_ARGS),
  },
  parse: (raw) => parseTagged('silent_result', SILENT_ARGS, raw),
  async run({ silent_ms = 1000 }, ctx) {
    const done = await sleep(silent_ms, ctx.signal);
    if (done) ctx.onStep(1);
    const structured = { silent_ms, done };
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  },
};

/** The extra tools of the check's upstream, by name. */
export const CHECK_TOOLS: ReadonlyMap<string, CheckTool> = new Map([
  ['progress_tight', progressTight],
  ['multibyte_output', multibyteOutput],
  [TASK_TOOL, taskSteps],
  ['input_round', inputRound],
  ['silent_result', silentResult],
]);
