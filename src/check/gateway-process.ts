import { connect, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { GoldenError } from '../errors.js';
import { spawnGroup } from '../process/child-group.js';

/** Fills `{upstream}` and `{port}` in a gateway command template. */
export function fillTemplate(template: string, values: { upstream: string; port: number }): string {
  if (!template.includes('{upstream}') && !template.includes('{port}')) {
    throw new GoldenError(
      'E_USAGE',
      `The --gateway command "${template}" has neither {upstream} nor {port}. Put {upstream} where the gateway takes its upstream and {port} where it takes its listening port.`,
    );
  }
  return template.replaceAll('{upstream}', values.upstream).replaceAll('{port}', String(values.port));
}

/** A free TCP port on 127.0.0.1 (the OS picks it; it is released before returning). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A gateway started by the check. */
export interface GatewayProcess {
  readonly command: string;
  /** The last lines it wrote to stdout and stderr. */
  output(): string;
  /** Why it exited, once no process of its group is left (a shell that backgrounded the server is not "exited"). */
  exited(): string | undefined;
  /** Stops it and every process of its group: SIGTERM, then SIGKILL after `graceMs`; bounded. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts a gateway command through `/bin/sh -c` (so pipes, `&&`, variables and quoting work as
 * in a terminal) as the leader of its own process group, so the shell's children, backgrounded
 * or not, stop with it. When `port` is given, waits until something accepts connections there.
 * A gateway that exits or never listens within `timeoutMs` is stopped (the whole group) and
 * reported as an `E_TARGET` / `E_TIMEOUT` error carrying its output.
 */
export async function startGateway(
  command: string,
  port: number | undefined,
  timeoutMs: number,
): Promise<GatewayProcess> {
  const group = spawnGroup('/bin/sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'], label: command });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  group.child.stdout?.on('data', keep);
  group.child.stderr?.on('data', keep);
  const gateway: GatewayProcess = {
    command,
    output: () => output.trim(),
    exited: () => (group.exited() !== undefined && !group.alive() ? group.exited() : undefined),
    stop: (graceMs) => group.stop(graceMs),
  };
  if (port === undefined) return gateway;
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      const exitReason = gateway.exited();
      if (exitReason !== undefined) {
        throw new GoldenError(
          'E_TARGET',
          `The gateway "${command}" ${exitReason} before listening on 127.0.0.1:${port}. Its output ended with:\n${output.trim() || '(nothing)'}`,
        );
      }
      if (await canConnect(port)) return gateway;
      await sleep(50);
    }
    throw new GoldenError(
      'E_TIMEOUT',
      `The gateway "${command}" did not listen on 127.0.0.1:${port} within ${timeoutMs} ms (timeout after ${timeoutMs} ms). Check that it takes {port} as its listening port. Its output ended with:\n${output.trim() || '(nothing)'}`,
    );
  } catch (error) {
    // The shell may have exited while its children live on (a backgrounded server): stop them all.
    await group.stop();
    throw error;
  }
}
