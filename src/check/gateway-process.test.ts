import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, test } from 'vitest';
import { freePort } from './gateway-process.js';

/** The low end of the ports the kernel gives outgoing connections (Linux), or Linux's default elsewhere. */
function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return 32768;
  }
}

describe('freePort', () => {
  test('hands out distinct ports, asked for at once, each one listenable; below the ephemeral range when it leaves room', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    expect(new Set(ports).size).toBe(ports.length);
    // With less than 1,000 ports between 10,000 and the range, it takes the OS's pick (port 0) instead.
    if (ephemeralLow() - 10_000 > 1000) for (const port of ports) expect(port).toBeLessThan(ephemeralLow());
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(ports[0], '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
