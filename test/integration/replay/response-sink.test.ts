import type { ServerResponse } from 'node:http';
import { describe, expect, test } from 'vitest';
import { nodeResponseSink } from '../../../src/replay/replay-server.js';

/** A stand-in for node:http's response that logs what the sink does to it. */
function fakeResponse() {
  const log: string[] = [];
  let corks = 0;
  const res = {
    headersSent: false,
    on: () => res,
    cork: () => {
      corks++;
      log.push('cork');
    },
    uncork: () => {
      corks--;
      log.push('uncork');
    },
    write: (bytes: Uint8Array | string) => log.push(`write ${Buffer.from(bytes).toString()}`),
    writeHead: (status: number) => log.push(`head ${status}`),
    flushHeaders: () => undefined,
    end: () => {
      // node:http's end() uncorks the socket fully.
      corks = 0;
      log.push('end');
    },
  };
  return { res: res as unknown as ServerResponse, log, corks: () => corks };
}

const turnEnds = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('nodeResponseSink: what is written in one turn of the loop leaves together', () => {
  test('a head and the writes after it are corked once and uncorked when the turn ends', async () => {
    const { res, log, corks } = fakeResponse();
    const sink = nodeResponseSink(res);
    sink.head(200, {});
    sink.write('a');
    sink.writeAll?.([Buffer.from('b'), Buffer.from('c')]);
    expect(log).toEqual(['cork', 'head 200', 'write a', 'write b', 'write c']);
    await turnEnds();
    expect(log.at(-1)).toBe('uncork');
    expect(corks()).toBe(0);
  });

  test('flush lets the writes leave at once; a write after it corks again, and the turn’s end uncorks once', async () => {
    const { res, log, corks } = fakeResponse();
    const sink = nodeResponseSink(res);
    sink.write('a');
    sink.flush?.();
    sink.write('b');
    expect(log).toEqual(['cork', 'write a', 'uncork', 'cork', 'write b']);
    await turnEnds();
    expect(log).toEqual(['cork', 'write a', 'uncork', 'cork', 'write b', 'uncork']);
    expect(corks()).toBe(0);
  });

  test('many responses corked in one turn are each uncorked once; one ended in the turn is not uncorked after', async () => {
    const responses = [fakeResponse(), fakeResponse(), fakeResponse()];
    const sinks = responses.map(({ res }) => nodeResponseSink(res));
    for (const sink of sinks) sink.write('x');
    sinks[1]?.end();
    await turnEnds();
    expect(responses.map(({ log }) => log)).toEqual([
      ['cork', 'write x', 'uncork'],
      ['cork', 'write x', 'end'],
      ['cork', 'write x', 'uncork'],
    ]);
    // A later turn starts afresh.
    sinks[0]?.write('y');
    await turnEnds();
    expect(responses[0]?.log.slice(3)).toEqual(['cork', 'write y', 'uncork']);
  });
});
