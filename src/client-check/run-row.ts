import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnGroup } from '../process/child-group.js';
import { createReplayServer } from '../replay/replay-server.js';
import { MODERN_PROTOCOL_VERSION } from '../transcript/frame.js';
import { clientCheckGolden } from './goldens.js';
import type { ClientRow, Era, PrintedLine, RowRun } from './vocabulary.js';

/** The protocol version a client is asked to speak in each era. */
export const ERA_VERSION: Readonly<Record<Era, string>> = { legacy: '2025-11-25', modern: MODERN_PROTOCOL_VERSION };

/** Most standard error kept for the evidence. */
const STDERR_TAIL = 2000;
/** Grace between SIGTERM and SIGKILL for a client's process group. */
const STOP_GRACE_MS = 1000;

/** `cmd` with the URL in place of `{url}`, or appended as its last argument (as the conformance runner does). */
export function clientCommand(cmd: string, url: string): string {
  return cmd.includes('{url}') ? cmd.replaceAll('{url}', url) : `${cmd} ${url}`;
}

/** A contract line, or `undefined` for any other line (ignored, as the contract says). */
export function contractLine(text: string, at: number): PrintedLine | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const line = value as Record<string, unknown>;
  if (typeof line.call !== 'number') return undefined;
  const call = line.call;
  if (typeof line.progress === 'number')
    return { at, call, progress: line.progress, ...(typeof line.total === 'number' && { total: line.total }) };
  if (typeof line.result === 'string') return { at, call, result: line.result };
  if (typeof line.error === 'string') return { at, call, error: line.error };
  if (line.aborted === true) return { at, call, aborted: true };
  return undefined;
}

/**
 * Runs one row in one era: starts the row's fault-injecting replay, runs the client command against
 * it with the contract's environment, collects what it printed, and stops both, whatever happens.
 */
export async function runRow(row: ClientRow, era: Era, command: string): Promise<RowRun> {
  const setup = row.server(era);
  const plan = row.plan(era);
  const server = await createReplayServer(clientCheckGolden(row.id, setup.calls), {
    ...(setup.chunking && { chunking: setup.chunking }),
    ...(setup.faults && { faults: setup.faults }),
    log: { write: () => true },
  });
  const lines: PrintedLine[] = [];
  let stderr = '';
  const startedAt = Date.now();
  const group = spawnGroup('/bin/sh', ['-c', clientCommand(command, server.url)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    label: command,
    env: {
      ...process.env,
      MCP_GOLDEN_SCENARIO: row.id,
      MCP_CONFORMANCE_SCENARIO: row.id,
      MCP_CONFORMANCE_PROTOCOL_VERSION: ERA_VERSION[era],
      MCP_GOLDEN_PLAN: JSON.stringify(plan),
    },
  });
  try {
    if (group.child.stdout) {
      createInterface({ input: group.child.stdout }).on('line', (text) => {
        const line = contractLine(text, Date.now());
        if (line) lines.push(line);
      });
    }
    group.child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    let exit: RowRun['exit'];
    group.child.once('exit', (code, signal) => {
      exit = { at: Date.now(), code, signal };
    });
    const timer = new AbortController();
    const deadline = sleep(row.budgetMs, undefined, { signal: timer.signal }).catch(() => undefined);
    await Promise.race([group.exit, deadline]);
    timer.abort();
    // Lines still in the pipe when the client exited are read before judging.
    await sleep(exit ? (row.afterExitMs ?? 100) : 0);
    return { era, startedAt, audit: [...server.audit()], lines: [...lines], exit, stderr };
  } finally {
    await Promise.allSettled([group.stop(STOP_GRACE_MS), server.close()]);
  }
}
