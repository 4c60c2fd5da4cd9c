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
  expect(proxy.startFailure()).toBe('it exited with code 1; it wrote nothing to stderr');
  expect(proxy.serverExit()).toBe('it exited with code 1; it wrote nothing to stderr');
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
  // The client closed its end: the server's exit that follows is no failure of the server.
  expect(proxy.serverExit()).toBeUndefined();
  expect(proxy.startFailure()).toBeUndefined();
});

test('a server that dies mid-session (after it answered) is named by serverExit with the end of its stderr, not by startFailure', async () => {
  const input = new PassThrough();
  const output = new PassThrough();
  output.resume();
  const server =
    "process.stdin.once('data', () => { process.stdout.write('{}\\n'); process.stderr.write('out of memory\\n'); process.exit(7); });";
  const proxy = startStdioTargetRecording({ command: process.execPath, args: ['-e', server] }, input, output);
  input.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
  await proxy.ended;
  expect(proxy.startFailure()).toBeUndefined();
  expect(proxy.serverExit()).toBe(
    'it exited with code 7 while its client was connected; its stderr ended with: out of memory',
  );
});
