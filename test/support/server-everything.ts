import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';

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

/** What every test of a file shares: a temporary folder and server-everything over HTTP. */
export interface EverythingSuite {
  /** The folder, removed after the file's tests. */
  readonly dir: string;
  /** server-everything over HTTP, stopped after the file's tests. */
  readonly http: RunningEverything;
}

/**
 * Registers the file's `beforeAll` that makes a temporary folder (named `prefix`...) and starts
 * server-everything over HTTP, and the `afterAll` that stops it and removes the folder; their
 * values are on the returned object once the tests run.
 */
export function useEverythingHttp(prefix: string): EverythingSuite {
  const suite: { dir?: string; http?: RunningEverything } = {};
  beforeAll(async () => {
    suite.dir = await mkdtemp(join(tmpdir(), prefix));
    suite.http = await startEverythingHttp();
  }, 30_000);
  afterAll(async () => {
    await suite.http?.stop();
    if (suite.dir !== undefined) await rm(suite.dir, { recursive: true, force: true });
  });
  return suite as EverythingSuite;
}
