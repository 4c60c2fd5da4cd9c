import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { StdioCommand } from '../../src/record/stdio-wire-session.js';

const require = createRequire(import.meta.url);
/** The pinned `@modelcontextprotocol/server-everything` entry point. */
export const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const LOOPBACK = fileURLToPath(new URL('./loopback-listen.mjs', import.meta.url));

/** server-everything on stdio, as a recorder target. */
export const everythingStdio: StdioCommand = {
  command: process.execPath,
  args: [EVERYTHING, 'stdio'],
  label: 'mcp-server-everything stdio',
};

/**
 * Starts server-everything's Streamable HTTP transport in its own process group, bound to
 * 127.0.0.1 on a free port; `close` stops the whole group.
 */
export async function startEverythingHttp(): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', LOOPBACK, EVERYTHING, 'streamableHttp'], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything did not start: ${stderr}`)), 20_000);
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
      const match = /mcp-golden-listening (\d+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on('exit', (code) => reject(new Error(`server-everything exited with ${code}: ${stderr}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      if (child.exitCode !== null || child.pid === undefined) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGKILL');
      await exited;
    },
  };
}
