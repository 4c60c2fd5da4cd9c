// Small MCP servers for the lint tests, written with the SDK: `good` follows every rule of the
// progress contract; each other flaw breaks exactly one. Plain JavaScript so the stdio flaws can
// run as a child process (`node lint-server.mjs <flaw>`) without a TypeScript loader.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** Every flaw a lint server can have ('good' has none). */
export const FLAWS = [
  'good',
  'token-echo',
  'no-token-no-progress',
  'monotonic',
  'total-constant',
  'final-progress',
  'after-result',
  'rate',
  'heartbeat',
  'event-ids',
  'resume-lossless',
  'partial-results',
  'partial-results-good',
];

const STEP_MS = 20;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (t) => ({ type: 'text', text: t });

/** Progress sequences `[progress, total]` per flaw; the good sequence is 1..4 of 4. */
const SEQUENCES = {
  monotonic: [
    [1, 4],
    [2, 4],
    [2, 4],
    [4, 4],
  ],
  'total-constant': [
    [1, 4],
    [2, 4],
    [3, 5],
    [5, 5],
  ],
  'final-progress': [
    [1, 4],
    [2, 4],
    [3, 4],
  ],
};

/**
 * The tool `work {fail?: boolean, steps?: number}`: `steps` notifications `STEP_MS` apart (each
 * flaw bends one rule), then the result; with `fail`, a final notification and an isError result.
 */
async function work(flaw, server, args, extra) {
  const token = extra._meta?.progressToken;
  const steps = typeof args.steps === 'number' ? args.steps : 4;
  const notify = (progress, total, extraParams = {}) =>
    extra.sendNotification({
      method: 'notifications/progress',
      params: { progressToken: token, progress, total, message: `step ${progress}/${total}`, ...extraParams },
    });
  if (token === undefined) {
    if (flaw === 'no-token-no-progress') {
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken: 'invented-token', progress: 1, total: 1 },
      });
    }
    return { content: [text('done without progress')] };
  }
  if (flaw === 'token-echo') {
    // Echoes the numeric token as a string: same digits, wrong JSON type.
    for (let i = 1; i <= steps; i++) {
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken: String(token), progress: i, total: steps },
      });
      await sleep(STEP_MS);
    }
    return { content: [text('done')] };
  }
  if (SEQUENCES[flaw]) {
    for (const [progress, total] of SEQUENCES[flaw]) {
      await notify(progress, total);
      await sleep(STEP_MS);
    }
    return { content: [text('done')] };
  }
  if (flaw === 'rate') {
    for (let i = 1; i <= 12; i++) await notify(i, 12);
    return { content: [text('done')] };
  }
  if (flaw === 'heartbeat') {
    await notify(1, 2);
    await sleep(4000);
    await notify(2, 2);
    return { content: [text('done')] };
  }
  if (flaw === 'partial-results' || flaw === 'partial-results-good') {
    const parts = ['alpha', 'beta', 'gamma'];
    for (const [i, part] of parts.entries()) {
      await notify(i + 1, parts.length, { partialResult: { content: [text(part)] } });
      await sleep(STEP_MS);
    }
    const final = flaw === 'partial-results' ? ['alpha', 'gamma'] : parts;
    return { content: final.map(text) };
  }
  for (let i = 1; i <= steps; i++) {
    if (args.fail && i === 3) {
      // The error path still resolves the client's progress bar: progress == total, then isError.
      await notify(steps, steps, { message: `failed at step ${i}/${steps}` });
      return { isError: true, content: [text(`work failed at step ${i}/${steps}`)] };
    }
    await notify(i, steps);
    await sleep(STEP_MS);
  }
  if (flaw === 'after-result') {
    // Reports once more after the result has gone out: background work that outlives the call.
    setTimeout(() => {
      void server.notification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: steps + 1 },
      });
    }, 5);
  }
  return { content: [text('done')] };
}

/** An SDK server whose tool `work` has the given flaw. */
export function createLintServer(flaw) {
  if (!FLAWS.includes(flaw)) throw new Error(`Unknown flaw "${flaw}". Expected one of: ${FLAWS.join(', ')}`);
  const server = new Server({ name: `lint-${flaw}`, version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'work', description: 'Reports progress, then answers.', inputSchema: { type: 'object' } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    work(flaw, server, request.params.arguments ?? {}, extra),
  );
  return server;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const server = createLintServer(process.argv[2]);
  await server.connect(new StdioServerTransport());
  // Let anything still queued (the after-result notification) reach stdout before exiting.
  process.stdin.once('end', () => setTimeout(() => process.exit(0), 100));
}
