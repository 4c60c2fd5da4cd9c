import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { freePort } from '../../src/check/gateway-process.js';
import { groupAlive } from '../../src/process/child-group.js';

const SCRIPT = fileURLToPath(new URL('../support/nginx-gateway.sh', import.meta.url));

const listening = async (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe('test/support/nginx-gateway.sh', () => {
  test.each(['SIGTERM', 'SIGINT'] as const)('removes its temp directory when stopped with %s', async (signal) => {
    const tmp = await mkdtemp(join(tmpdir(), 'nginx-cleanup-'));
    try {
      const port = await freePort();
      const child = spawn('bash', [SCRIPT, 'http://127.0.0.1:9/mcp', String(port), 'faithful'], {
        env: { ...process.env, TMPDIR: tmp },
        stdio: 'ignore',
        detached: true,
      });
      const deadline = Date.now() + 10_000;
      while (!(await listening(port)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await readdir(tmp)).toHaveLength(1);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      // As the check stops a gateway: the signal goes to the whole group.
      process.kill(-(child.pid as number), signal);
      expect(await exited).toBe(signal === 'SIGTERM' ? 143 : 130);
      const gone = Date.now() + 5000;
      while (groupAlive(child.pid as number) && Date.now() < gone) await new Promise((r) => setTimeout(r, 25));
      expect(groupAlive(child.pid as number)).toBe(false);
      expect(await readdir(tmp)).toEqual([]);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  });
});
