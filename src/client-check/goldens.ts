import { CHATTY_BLOCKS, longOutputBlock, referenceToolDefinitions } from '../server/reference-tools.js';
import type { Frame, Transcript } from '../transcript/frame.js';
import { INITIALIZED, legacyInitialize } from '../transcript/json-rpc.js';
import { VERSION } from '../version.js';

/**
 * One call a row's golden answers: a reference tool with its arguments, the progress it sends
 * (`steps`, `stepMs` apart, before the result) and when it starts after the previous one.
 */
export interface GoldenCall {
  readonly name: 'progress' | 'chatty' | 'long_output';
  readonly arguments: Readonly<Record<string, number>>;
  /** Progress notifications before the result (the `progress` tool's `steps`). @default 0 */
  readonly steps?: number;
  /** Time between two progress notifications, and from the last one to the result. @default 20 */
  readonly stepMs?: number;
  /** A progress for a token never issued before the first step, and one more for the call's token after the result. @default false */
  readonly lateProgress?: boolean;
  /** Silence before the call's first event (a progress, or the result when there is none), in ms. @default 0 */
  readonly leadMs?: number;
}

const US = 1000;
/**
 * Least time between a call's last progress and its result. Only progress-coalesced-final (its
 * fault) and a resumed stream (its replay) put the two in one read: a closer pair would reach a slow
 * client in one read now and then, and a client that loses a progress read with its result
 * (the careful client's async-progress-dispatch) would fail framing rows by chance.
 */
const TAIL_US = 150 * US;

/** The result the reference tool gives for these arguments, as the reference server writes it. */
export function referenceResult(call: GoldenCall): Record<string, unknown> {
  if (call.name === 'chatty') return { content: CHATTY_BLOCKS.map((text) => ({ type: 'text', text })) };
  if (call.name === 'long_output') {
    const blocks = call.arguments.blocks ?? 3;
    const chars = call.arguments.chars ?? 256;
    const content = Array.from({ length: blocks }, (_, n) => ({ type: 'text', text: longOutputBlock(n, chars) }));
    return { content };
  }
  const steps = call.arguments.steps ?? 5;
  const structured = { steps, notified: (call.steps ?? 0) > 0, done: true };
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/** The text a client prints for a result: its text blocks joined with `\n` (the contract's `result` line). */
export function expectedText(call: GoldenCall): string {
  const content = referenceResult(call).content as { text: string }[];
  return content.map((block) => block.text).join('\n');
}

/**
 * A 2025-11-25 stdio transcript of the reference server answering `calls` in order, as its tools
 * answer (made, not recorded: the same bytes every run, with progress at fixed offsets). The
 * replay serves it over HTTP in either era, re-framed for the client's `Accept`, with the live id
 * and token stamped in; `server/discover` is made from its `initialize` for a 2026-07-28 client.
 */
export function clientCheckGolden(scenario: string, calls: readonly GoldenCall[]): Transcript {
  const frames: Frame[] = [];
  let t = 100;
  let exchange = 0;
  const send = (dir: Frame['dir'], message: unknown, ex: number): void => {
    frames.push({ t, dir, channel: 'stdio', exchange: ex, raw: `${JSON.stringify(message)}\n` });
  };
  exchange += 1;
  send('client->server', legacyInitialize(0, '2025-11-25', {}, { name: 'mcp-golden', version: VERSION }), exchange);
  t += 200;
  send(
    'server->client',
    {
      result: {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 'mcp-golden-client-check', version: VERSION },
      },
      jsonrpc: '2.0',
      id: 0,
    },
    exchange,
  );
  t += 100;
  send('client->server', INITIALIZED, 0);
  exchange += 1;
  t += 100;
  send('client->server', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, exchange);
  t += 200;
  send('server->client', { result: { tools: referenceToolDefinitions() }, jsonrpc: '2.0', id: 1 }, exchange);
  for (const [index, call] of calls.entries()) {
    exchange += 1;
    const id = index + 2;
    const token = `golden-${index}`;
    t += 100;
    const meta = (call.steps ?? 0) > 0 ? { _meta: { progressToken: token } } : {};
    const params = { name: call.name, arguments: call.arguments, ...meta };
    send('client->server', { jsonrpc: '2.0', id, method: 'tools/call', params }, exchange);
    const stepUs = Math.round((call.stepMs ?? 20) * US);
    t += 500 + Math.round((call.leadMs ?? 0) * US);
    const steps = call.steps ?? 0;
    if (call.lateProgress) {
      // A progress for a token never issued, before the result (a client that reads no further still sees it).
      const stray = { progressToken: 'never-issued', progress: 1, total: 1, message: 'stray' };
      send('server->client', { method: 'notifications/progress', params: stray, jsonrpc: '2.0' }, exchange);
      t += stepUs;
    }
    for (let step = 1; step <= steps; step++) {
      const progress = { progressToken: token, progress: step, total: steps, message: `step ${step}/${steps}` };
      send('server->client', { method: 'notifications/progress', params: progress, jsonrpc: '2.0' }, exchange);
      t += step === steps ? Math.max(stepUs, TAIL_US) : stepUs;
    }
    send('server->client', { result: referenceResult(call), jsonrpc: '2.0', id }, exchange);
    if (call.lateProgress) {
      t += stepUs;
      const late = { progressToken: token, progress: steps + 1, total: steps + 1, message: 'late' };
      send('server->client', { method: 'notifications/progress', params: late, jsonrpc: '2.0' }, exchange);
    }
  }
  t += 100;
  frames.push({ t, dir: 'client->server', channel: 'end', exchange: 0, reason: 'complete' });
  return {
    header: {
      format: 'mcp-golden/1',
      protocolVersion: '2025-11-25',
      transport: 'stdio',
      target: 'mcp-golden check --client',
      scenario,
      recorder: `mcp-golden ${VERSION}`,
    },
    frames,
  };
}
