import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { expect, test } from 'vitest';
import { startStdioTargetRecording } from './target-proxy.js';

// The client of a stdio recording proxy (record --proxy --stdio, useGolden's stdio endpoint) reads
// the proxy as its server: when the server exits, the client must see its stdout end, as it would
// from the server itself, instead of waiting for an answer that never comes.

test('when the server exits, the stream the client reads ends and the client’s input is no longer read', async () => {
  const input = new PassThrough();
  const output = new PassThrough();
  output.resume();
  const proxy = startStdioTargetRecording(
    { command: process.execPath, args: ['-e', 'process.exit(1)'] },
    input,
    output,
  );
  input.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
  await proxy.ended;
  await Promise.race([
    once(output, 'end'),
    new Promise((_, reject) => setTimeout(() => reject(new Error('the client still waits on the proxy')), 5000)),
  ]);
  expect(input.isPaused()).toBe(true);
  expect(proxy.startFailure()).toBe('it exited with code 1');
});

test('while the server runs, the stream the client reads stays open', async () => {
  const input = new PassThrough();
  const output = new PassThrough();
  const proxy = startStdioTargetRecording(
    { command: process.execPath, args: ['-e', 'process.stdin.resume()'] },
    input,
    output,
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(output.writableEnded).toBe(false);
  input.end();
  await proxy.ended;
  expect(output.writableEnded).toBe(true);
});
