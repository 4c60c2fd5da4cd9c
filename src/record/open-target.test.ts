import { expect, test } from 'vitest';
import { GoldenError } from '../errors.js';
import { FrameSink } from './frame-sink.js';
import { describeTarget, openTarget, secretsOfTarget, targetKind, withTargetHeaders } from './open-target.js';

test('a target is told apart once: a URL string, a URL, a URL with options, a stdio command', () => {
  expect(targetKind('http://127.0.0.1:1/mcp')).toEqual({ kind: 'http', url: 'http://127.0.0.1:1/mcp' });
  expect(targetKind(new URL('http://127.0.0.1:1/mcp'))).toEqual({ kind: 'http', url: 'http://127.0.0.1:1/mcp' });
  expect(targetKind({ url: 'http://127.0.0.1:1/mcp', headers: { a: 'b' }, label: 'gw' })).toEqual({
    kind: 'http',
    url: 'http://127.0.0.1:1/mcp',
    headers: { a: 'b' },
    label: 'gw',
  });
  expect(targetKind({ command: 'node', args: ['server.js'] })).toEqual({
    kind: 'stdio',
    command: { command: 'node', args: ['server.js'] },
  });
});

test('headers are added to an HTTP target (its label and own headers kept), never to a command', () => {
  expect(withTargetHeaders('http://127.0.0.1:1/mcp', { 'accept-encoding': 'gzip' })).toEqual({
    url: 'http://127.0.0.1:1/mcp',
    headers: { 'accept-encoding': 'gzip' },
  });
  expect(withTargetHeaders({ url: 'http://127.0.0.1:1/mcp', headers: { a: 'b' }, label: 'gw' }, { c: 'd' })).toEqual({
    url: 'http://127.0.0.1:1/mcp',
    headers: { a: 'b', c: 'd' },
    label: 'gw',
  });
  const command = { command: 'node', args: ['server.js'] };
  expect(withTargetHeaders(command, { c: 'd' })).toBe(command);
});

test('a target is named by its label, else its URL or command line; its secrets are found as record finds them', () => {
  expect(describeTarget({ url: 'http://127.0.0.1:1/mcp', label: 'gw' })).toBe('"gw"');
  expect(describeTarget({ command: 'node', args: ['server.js'] })).toBe('"node server.js"');
  expect(secretsOfTarget('http://127.0.0.1:1/mcp?api_key=s3cret').values).toContain('s3cret');
  expect(secretsOfTarget({ command: 'node', env: { API_TOKEN: 'tok-123' } }).values).toContain('tok-123');
});

test('a URL that is not http(s) is refused with the fix, and nothing is opened', () => {
  const open = () => openTarget('ftp://127.0.0.1/mcp?key=x', { sink: new FrameSink(), protocolVersion: '2025-11-25' });
  expect(open).toThrow(GoldenError);
  expect(open).toThrow(
    'Cannot record "ftp://127.0.0.1/mcp": expected an http:// or https:// MCP endpoint URL, or a stdio command.',
  );
});
