import { type ChildProcess, spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { GoldenError } from '../errors.js';

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
  /** Why it exited, if it did. */
  exited(): string | undefined;
  /** Stops it and its children: SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts a gateway command (through the shell, in its own process group so its children stop with
 * it) and, when `port` is given, waits until it accepts connections there. A gateway that exits
 * or never listens within `timeoutMs` is an `E_TARGET` error carrying its output.
 */
export async function startGateway(
  command: string,
  port: number | undefined,
  timeoutMs: number,
): Promise<GatewayProcess> {
  const child: ChildProcess = spawn(command, { shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let exitReason: string | undefined;
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exitReason = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      resolve();
    });
    child.once('error', (error) => {
      exitReason = `could not start (${error.message})`;
      resolve();
    });
  });
  const gateway: GatewayProcess = {
    command,
    output: () => output.trim(),
    exited: () => exitReason,
    async stop(graceMs = 2000) {
      if (exitReason !== undefined || child.pid === undefined) return;
      const signal = (sig: NodeJS.Signals): void => {
        try {
          process.kill(-(child.pid as number), sig);
        } catch {
          child.kill(sig);
        }
      };
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  if (port === undefined) return gateway;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exitReason !== undefined) {
      throw new GoldenError(
        'E_TARGET',
        `The gateway "${command}" ${exitReason} before listening on 127.0.0.1:${port}. Its output ended with:\n${output.trim() || '(nothing)'}`,
      );
    }
    if (await canConnect(port)) return gateway;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await gateway.stop();
  throw new GoldenError(
    'E_TIMEOUT',
    `The gateway "${command}" did not listen on 127.0.0.1:${port} within ${timeoutMs} ms. Check that it takes {port} as its listening port. Its output ended with:\n${output.trim() || '(nothing)'}`,
  );
}
