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

/** The extra tools of the check's upstream, by name. */
export const CHECK_TOOLS: ReadonlyMap<string, CheckTool> = new Map([
  ['progress_tight', progressTight],
  ['multibyte_output', multibyteOutput],
  [TASK_TOOL, taskSteps],
]);
