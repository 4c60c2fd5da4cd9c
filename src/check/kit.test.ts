import { describe, expect, test } from 'vitest';
import { GoldenError } from '../errors.js';
import { failedRecording, row, unmetNeed, withSessions } from './kit.js';
import type { BatteryContext } from './vocabulary.js';

const context = { clientEra: 'modern' } as BatteryContext;

describe('row', () => {
  test('turns what its body throws into a failing result that names the client leg and the first line', async () => {
    const thrower = row('a row', 'light', async () => {
      throw new Error('socket hang up\nat somewhere');
    });
    expect(await thrower.run(context)).toEqual({
      property: 'a row',
      verdict: 'fail',
      evidence: 'client→gateway: socket hang up',
      numbers: {},
      calls: [],
    });
  });

  test('says a timeout is the gateway not answering in time', async () => {
    const slow = row('slow', 'light', async () => {
      throw new GoldenError('E_TIMEOUT', 'no message within 10 ms');
    });
    expect((await slow.run(context)).evidence).toBe(
      'client→gateway: the gateway did not answer in time: no message within 10 ms',
    );
  });

  test('a row that also records a reference keeps the cause and names no leg', async () => {
    const failing = row(
      'pair',
      'light',
      async () => {
        throw new Error('fetch failed', {
          cause: Object.assign(new Error('connect refused'), { code: 'ECONNREFUSED' }),
        });
      },
      { onError: failedRecording },
    );
    expect((await failing.run(context)).evidence).toBe('fetch failed (ECONNREFUSED: connect refused)');
  });

  test('hands its name to the body and declares its load, waits, era and needs', async () => {
    const declared = row(
      'named',
      'heavy',
      async (_, name) => ({ property: name, verdict: 'pass', evidence: '', numbers: {}, calls: [] }),
      { waits: true, era: 'modern', needs: { eras: { client: { is: 'legacy', why: 'not in this era' } } } },
    );
    expect((await declared.run(context)).property).toBe('named');
    expect([declared.load, declared.waits, declared.era, unmetNeed(declared, context)]).toEqual([
      'heavy',
      true,
      'modern',
      'not in this era',
    ]);
    expect(Object.keys(row('plain', 'light', async () => declared.run(context)))).toEqual(['name', 'load', 'run']);
  });

  test('the first unmet need gives the sentence; a context that meets every need gives none', () => {
    const needs = {
      clientTransport: { is: 'http', why: 'needs an HTTP client' },
      upstreamTransport: { is: 'http', why: 'needs an HTTP upstream' },
      eras: { either: { is: 'modern', why: 'one leg must speak 2026-07-28' } },
      replicas: { is: 2, why: 'needs two replicas' },
    } as const;
    const base = {
      clientTransport: 'http',
      upstreamTransport: 'http',
      clientEra: 'legacy',
      upstreamEra: 'modern',
    } as BatteryContext;
    const replicas = [async () => [], async () => []] as const;
    expect(unmetNeed({ needs }, { ...base, replicas })).toBeUndefined();
    expect(unmetNeed({ needs }, base)).toBe('needs two replicas');
    expect(unmetNeed({ needs }, { ...base, replicas, upstreamEra: 'legacy' })).toBe('one leg must speak 2026-07-28');
    expect(unmetNeed({ needs }, { ...base, replicas, clientTransport: 'stdio' })).toBe('needs an HTTP client');
    expect(unmetNeed({ needs }, { ...base, replicas, upstreamTransport: 'stdio' })).toBe('needs an HTTP upstream');
  });

  test('a timeout on the first request of a session that starts a process is inconclusive, not a failure', async () => {
    const late = row('late', 'light', async () => {
      throw new GoldenError(
        'E_TIMEOUT',
        'Waiting for the answer to initialize from "gw": nothing arrived within 10 ms.',
      );
    });
    const stdio = { ...context, clientTransport: 'stdio', timeoutMs: 10 } as BatteryContext;
    expect(await late.run(stdio)).toMatchObject({
      verdict: 'inconclusive',
      evidence: expect.stringMatching(/^the gateway did not start in time: Waiting for the answer to initialize/),
    });
    // Over HTTP to an HTTP upstream the gateway was ready at the first call: a later silence is its own.
    const http = { ...stdio, clientTransport: 'http', upstreamTransport: 'http' } as BatteryContext;
    expect((await late.run(http)).verdict).toBe('fail');
  });
});

describe('withSessions', () => {
  test('closes the session that opened when the other failed to, and rethrows', async () => {
    const { createServer } = await import('node:http');
    let initializes = 0;
    const deleted: string[] = [];
    const server = createServer((req, res) => {
      if (req.method === 'DELETE') {
        deleted.push(String(req.headers['mcp-session-id']));
        res.writeHead(200).end();
        return;
      }
      let body = '';
      req.on('data', (d: Buffer) => (body += d));
      req.on('end', () => {
        const message = JSON.parse(body) as { id?: unknown; method?: string };
        if (message.method === 'initialize' && ++initializes === 2) {
          res.writeHead(500, { 'content-type': 'text/plain' }).end('second session refused');
          return;
        }
        if (message.id === undefined) {
          res.writeHead(202).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'first-session' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: { protocolVersion: '2025-11-25', capabilities: {} },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const sessions = {
        ...context,
        clientEra: 'legacy',
        gateway: `http://127.0.0.1:${port}/mcp`,
        timeoutMs: 2000,
      } as BatteryContext;
      let ran = false;
      await expect(
        withSessions(sessions, async () => {
          ran = true;
        }),
      ).rejects.toThrow(/second session refused/);
      expect(ran).toBe(false);
      expect(deleted).toEqual(['first-session']);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
