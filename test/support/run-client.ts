import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A planned call, as `MCP_GOLDEN_PLAN` carries it. */
export interface PlannedCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly progress?: boolean;
  readonly abortAfterMs?: number | null;
}

/** One contract line a client printed: progress, result, error or aborted, for call `call`. */
export interface ClientLine {
  readonly call: number;
  readonly progress?: number;
  readonly total?: number;
  readonly result?: string;
  readonly error?: string;
  readonly aborted?: true;
}

/** What a client run under the `check --client` contract did. */
export interface ClientRun {
  readonly code: number | null;
  readonly lines: ClientLine[];
  readonly stderr: string;
  /** Milliseconds from start to exit. */
  readonly ms: number;
}

/** The shipped wrappers and the careful client, as command lines (the URL is appended). */
export const CLIENTS = {
  sdkV1: [process.execPath, fileURLToPath(new URL('../../clients/sdk-v1.mjs', import.meta.url))],
  sdkV2: [process.execPath, fileURLToPath(new URL('../../clients/sdk-v2.mjs', import.meta.url))],
  careful: [process.execPath, fileURLToPath(new URL('./careful-client.mjs', import.meta.url))],
} as const;

/**
 * Runs a client as the check does (the URL as its last argument, the era and plan in the
 * environment) and collects its contract lines; kills it after `timeoutMs`.
 */
export function runClient(
  command: readonly string[],
  url: string,
  options: {
    era: '2025-11-25' | '2026-07-28';
    calls: readonly PlannedCall[];
    concurrent?: boolean;
    scenario?: string;
    timeoutMs?: number;
  },
): Promise<ClientRun> {
  const plan = {
    calls: options.calls.map((c) => ({ progress: false, abortAfterMs: null, ...c })),
    concurrent: options.concurrent ?? false,
  };
  const scenario = options.scenario ?? 'test';
  const [file, ...args] = command;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(file ?? '', [...args, url], {
      env: {
        ...process.env,
        MCP_GOLDEN_SCENARIO: scenario,
        MCP_CONFORMANCE_SCENARIO: scenario,
        MCP_CONFORMANCE_PROTOCOL_VERSION: options.era,
        MCP_GOLDEN_PLAN: JSON.stringify(plan),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const lines = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as ClientLine)
        .filter((line) => typeof line.call === 'number');
      resolve({ code, lines, stderr, ms: performance.now() - started });
    });
  });
}

/** The lines of one call, without the `call` field. */
export function linesOf(run: ClientRun, call: number): Omit<ClientLine, 'call'>[] {
  return run.lines.filter((line) => line.call === call).map(({ call: _, ...rest }) => rest);
}
