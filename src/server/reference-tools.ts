import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { type IntegerArgument, parseIntegerArguments, toJsonSchema } from './tool-arguments.js';

/** The four exact `chatty` block strings, in order. */
export const CHATTY_BLOCKS: readonly string[] = [
  'first block: short',
  'second block: a slightly longer string with multiple words',
  'third block: numbers 1 2 3 4 5',
  'fourth block: unicode; café résumé naïve',
];

/** Names of the reference streaming tools. */
export type ReferenceToolName = 'progress' | 'long_output' | 'chatty';

/** What a tool run may do besides computing its result. */
export interface ToolContext {
  /** `_meta.progressToken` verbatim, or `undefined`. */
  readonly progressToken: string | number | undefined;
  /** Aborted when the call is cancelled or its connection closes. */
  readonly signal: AbortSignal;
  /** Sends `notifications/progress` on the call's own stream. */
  sendProgress(progress: number, total: number, message: string): Promise<void>;
  /** Called when step `i` is reached (after its notification, if any). */
  onStep(i: number): void;
  /**
   * Opt-in failure path of `progress`: at this step it sends a final notification (progress ==
   * total) and returns `isError: true`. Unset, the tool behaves exactly as specified.
   */
  readonly failAtStep?: number | undefined;
  /**
   * Holds this call's writes until the current turn of the event loop ends, so what the call sends
   * in it (the final notification and the result) leaves in one write. Unset: each message is its own write.
   */
  readonly holdWrites?: (() => void) | undefined;
  /**
   * The multi-round-trip fields of a 2026-07-28 `tools/call` (`inputResponses`, `requestState`), as
   * received; unset in the 2025 era, which has no `input_required` results.
   */
  readonly round?: InputRound | undefined;
}

/** What a retried 2026-07-28 request carries after an `input_required` result (absent fields: `undefined`). */
export interface InputRound {
  readonly inputResponses: unknown;
  readonly requestState: unknown;
}

interface ReferenceTool {
  readonly definition: Tool;
  readonly args: readonly IntegerArgument[];
  run(args: Record<string, number>, ctx: ToolContext): Promise<CallToolResult>;
}

const PROGRESS_ARGS: readonly IntegerArgument[] = [
  { name: 'steps', minimum: 1, maximum: 100, default: 5, description: 'Number of progress steps.' },
  {
    name: 'step_ms',
    minimum: 1,
    maximum: 5000,
    default: 200,
    description: 'Milliseconds slept after each progress notification.',
  },
];

const LONG_OUTPUT_ARGS: readonly IntegerArgument[] = [
  { name: 'blocks', minimum: 1, maximum: 50, default: 3, description: 'Number of text content blocks.' },
  {
    name: 'chars',
    minimum: 1,
    maximum: 65536,
    default: 256,
    description: 'Exact length of each block in characters.',
  },
];

const FILLER = 'abcdefghij';

/** Text of `long_output` block `n` (0-based): `"[block n] "` then `abcdefghij…`, exactly `chars` long. */
export function longOutputBlock(n: number, chars: number): string {
  const prefix = `[block ${n}] `;
  return (prefix + FILLER.repeat(Math.ceil(chars / FILLER.length))).slice(0, chars);
}

/** Resolves `true` after `ms`, or `false` as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The failure path: resolve the client's progress bar (progress == total), then report the error. */
async function failedProgress(step: number, steps: number, ctx: ToolContext): Promise<CallToolResult> {
  if (ctx.progressToken !== undefined) await ctx.sendProgress(steps, steps, `failed at step ${step}/${steps}`);
  return { content: [{ type: 'text', text: `progress failed at step ${step}/${steps}` }], isError: true };
}

const progressTool: ReferenceTool = {
  args: PROGRESS_ARGS,
  definition: {
    name: 'progress',
    description:
      'For i in 1..steps: sends notifications/progress {progress: i, total: steps, message: "step i/steps"} (only when the request carries _meta.progressToken, echoed verbatim), then sleeps step_ms. Returns {steps, notified, done}.',
    inputSchema: toJsonSchema(PROGRESS_ARGS),
    outputSchema: {
      type: 'object',
      properties: { steps: { type: 'integer' }, notified: { type: 'boolean' }, done: { type: 'boolean' } },
      required: ['steps', 'notified', 'done'],
    },
  },
  async run({ steps = 5, step_ms = 200 }, ctx) {
    const notified = ctx.progressToken !== undefined;
    for (let i = 1; i <= steps; i++) {
      if (ctx.signal.aborted) break;
      if (i === ctx.failAtStep) return failedProgress(i, steps, ctx);
      if (notified) await ctx.sendProgress(i, steps, `step ${i}/${steps}`);
      if (ctx.signal.aborted) break;
      ctx.onStep(i);
      if (!(await sleep(step_ms, ctx.signal))) break;
    }
    const structured = { steps, notified, done: true };
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  },
};

const longOutputTool: ReferenceTool = {
  args: LONG_OUTPUT_ARGS,
  definition: {
    name: 'long_output',
    description:
      'Returns `blocks` text items; item n (0-based) is "[block n] " followed by "abcdefghij" repeated, cut to exactly `chars` characters.',
    inputSchema: toJsonSchema(LONG_OUTPUT_ARGS),
  },
  async run({ blocks = 3, chars = 256 }) {
    const content = Array.from({ length: blocks }, (_, n) => ({
      type: 'text' as const,
      text: longOutputBlock(n, chars),
    }));
    return { content };
  },
};

const chattyTool: ReferenceTool = {
  args: [],
  definition: {
    name: 'chatty',
    description: 'Returns exactly four text blocks in a fixed order, one with non-ASCII text. No notifications.',
    inputSchema: toJsonSchema([]),
  },
  async run() {
    return { content: CHATTY_BLOCKS.map((text) => ({ type: 'text' as const, text })) };
  },
};

const TOOLS: ReadonlyMap<string, ReferenceTool> = new Map([
  ['progress', progressTool],
  ['long_output', longOutputTool],
  ['chatty', chattyTool],
]);

/** `tools/list` entries of the three reference streaming tools. */
export function referenceToolDefinitions(): Tool[] {
  return [...TOOLS.values()].map((tool) => structuredClone(tool.definition));
}

/** The tool called `name`, or `undefined`. */
export function findReferenceTool(name: string): ReferenceTool | undefined {
  return TOOLS.get(name);
}

/** Validates arguments for a reference tool (throws `E_ARGUMENTS`) and fills defaults. */
export function parseToolArguments(tool: ReferenceTool, raw: unknown): Record<string, number> {
  return parseIntegerArguments(tool.definition.name, tool.args, raw);
}
