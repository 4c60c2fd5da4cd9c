import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The entry point of `@modelcontextprotocol/server-everything` (a third-party MCP server). */
export const EVERYTHING = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);

const LOOPBACK = fileURLToPath(new URL('./listen-loopback.mjs', import.meta.url));

/** A running server-everything on Streamable HTTP. */
export interface RunningEverything {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts server-everything's Streamable HTTP transport on 127.0.0.1 and a free port (it listens on
 * `PORT` on every interface by itself; the preload binds it to loopback and prints the port).
 * The child runs in its own process group, stopped whole by `stop()`.
 */
export function startEverythingHttp(): Promise<RunningEverything> {
  const child: ChildProcess = spawn(process.execPath, ['--import', LOOPBACK, EVERYTHING, 'streamableHttp'], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    process.kill(-(child.pid as number), 'SIGKILL');
    await gone;
  };
  return new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`server-everything did not start: ${err}`));
    }, 20_000);
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      err += text;
      const port = /LISTENING (\d+)/.exec(err)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ url: `http://127.0.0.1:${port}/mcp`, stop });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited with ${code}: ${err}`));
    });
  });
}
