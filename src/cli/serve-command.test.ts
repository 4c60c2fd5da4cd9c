import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, test } from 'vitest';
import { CLI, startCli } from '../../test/support/cli.js';
import { runInProcess, startInProcess } from '../../test/support/in-process-cli.js';
import { recordCall } from '../record/record-call.js';
import type { AuditEntry } from '../server/audit-log.js';
import { frameMessage } from '../transcript/frame-content.js';

const stdioServer = { command: process.execPath, args: [CLI, 'serve', '--stdio'], label: 'mcp-golden serve --stdio' };

describe('mcp-golden serve --stdio (a real child process)', () => {
  test.each([
    ['a string', 'stdio-token-é'],
    ['zero', 0],
    ['a large integer', 9007199254740991],
    ['an emoji string', '🚀'],
  ])('echoes %s token verbatim and writes only JSON-RPC lines to stdout', async (_, token) => {
    const recording = await recordCall(stdioServer, {
      tool: 'progress',
      arguments: { steps: 3, step_ms: 10 },
      progressToken: token,
    });
    const lines = recording.frames.filter((f) => f.channel === 'stdio' && f.dir === 'server->client');
    expect(lines.every((f) => f.raw?.endsWith('\n') && frameMessage(f) !== undefined)).toBe(true);
    const progress = lines.filter((f) => frameMessage(f)?.method === 'notifications/progress');
    expect(
      progress.map((f) => (frameMessage(f)?.params as { progressToken: unknown } | undefined)?.progressToken),
    ).toEqual([token, token, token]);
    expect(recording.outcome.response?.result).toMatchObject({ structuredContent: { steps: 3, notified: true } });
  });

  test('cancel after step 3 stops the call and nothing follows the cancel', async () => {
    const recording = await recordCall(stdioServer, {
      tool: 'progress',
      arguments: { steps: 10, step_ms: 80 },
      progressToken: 'c',
      cancelAfter: 3,
    });
    expect(recording.outcome.progress).toHaveLength(3);
    expect(recording.outcome.afterCancel).toEqual([]);
    expect(recording.outcome.response).toBeUndefined();
    const cancel = recording.frames.find((f) => frameMessage(f)?.method === 'notifications/cancelled');
    const call = recording.frames.find((f) => frameMessage(f)?.method === 'tools/call');
    expect(cancel?.exchange).toBe(call?.exchange);
    const later = recording.frames.filter(
      (f) => f.channel === 'stdio' && f.dir === 'server->client' && cancel && f.t > cancel.t,
    );
    expect(later).toEqual([]);
  });

  test('serves the SDK stdio client, audit log included', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--stdio'] });
    const client = new Client({ name: 'sdk-stdio', version: '1.0.0' });
    await client.connect(transport);
    try {
      const progress: number[] = [];
      const result = await client.callTool({ name: 'progress', arguments: { steps: 2, step_ms: 5 } }, undefined, {
        onprogress: (p) => progress.push(p.progress),
      });
      expect(result.structuredContent).toEqual({ steps: 2, notified: true, done: true });
      const audit = await client.callTool({ name: 'audit_log', arguments: {} });
      const entries = (audit.structuredContent as { entries: { sessionId: unknown; progressTokenType: string }[] })
        .entries;
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ sessionId: null, progressTokenType: 'number' });
    } finally {
      await client.close();
    }
  });
});

test('--audit-file: two stdio processes append every call that ended to one file, one JSON line each', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-golden-audit-file-'));
  try {
    const file = join(dir, 'audit.jsonl');
    const server = { ...stdioServer, args: [...stdioServer.args, '--audit-file', file] };
    await recordCall(server, { tool: 'progress', arguments: { steps: 2, step_ms: 5 }, progressToken: 'one' });
    await recordCall(server, {
      tool: 'progress',
      arguments: { steps: 10, step_ms: 80 },
      progressToken: 'two',
      cancelAfter: 1,
    });
    const rows = (await readFile(file, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { pid: number; entry: AuditEntry });
    expect(rows.map((r) => [r.entry.progressToken, r.entry.outcome, r.entry.notifications.length])).toEqual([
      ['one', 'result', 2],
      ['two', 'cancelled', 1],
    ]);
    expect(new Set(rows.map((r) => r.pid)).size).toBe(2);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('--audit-file without --stdio is a usage error', async () => {
  const { code, stderr } = await runInProcess(['serve', '--audit-file', '/tmp/x.jsonl']);
  expect(code).toBe(2);
  expect(stderr).toContain('Option --audit-file is for --stdio');
});

describe('mcp-golden serve (HTTP)', () => {
  test('prints the URL it listens on, on 127.0.0.1, and serves the SDK client there', async () => {
    const served = await startCli(['serve', '--port', '0']);
    try {
      expect(served.firstLine).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const client = new Client({ name: 'sdk-http', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(served.firstLine)));
      const result = await client.callTool({ name: 'chatty', arguments: {} });
      expect(result.content).toHaveLength(4);
      await client.close();
    } finally {
      await served.stop();
    }
    expect(served.child.exitCode).toBe(0);
  });

  test('--no-accel-header and --json-response reach the server', async () => {
    const served = await startInProcess(['serve', '--no-accel-header', '--json-response']);
    try {
      const recording = await recordCall(served.firstLine, { tool: 'chatty' });
      const heads = recording.frames.filter((f) => f.channel === 'http' && f.dir === 'server->client');
      expect(heads.some((f) => f.headers?.['content-type'] === 'application/json')).toBe(true);
      expect(heads.some((f) => f.headers && 'x-accel-buffering' in f.headers)).toBe(false);
    } finally {
      await served.stop();
    }
  });

  test.each([
    [['serve', '--port', 'abc'], 'Invalid --port "abc": expected a whole number from 0 to 65535.'],
    [['serve', '--port', '70000'], 'Invalid --port "70000"'],
    [['serve', '--stdio', '--port', '1'], 'Conflicting options: --stdio and --port'],
    [['serve', '--bogus'], 'Unknown option "--bogus" for `serve`.'],
    [['serve', '--prot', '1'], 'Unknown option "--prot" for `serve`. Did you mean --port?'],
    [['serve', 'extra'], 'Unexpected argument "extra": `serve` takes no operands.'],
    [['serev'], 'Unknown command "serev". Did you mean serve? Expected one of:'],
    [['help', 'recrod'], 'Unknown command "recrod". Did you mean record?'],
  ])('refuses %j with exit code 2 and says why', async (args, message) => {
    const result = await runInProcess(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr.startsWith('[mcp-golden] ')).toBe(true);
  });

  test('reports a port in use instead of crashing', async () => {
    const first = await startInProcess(['serve']);
    try {
      const port = new URL(first.firstLine).port;
      const second = await runInProcess(['serve', '--port', port]);
      expect(second.code).toBe(2);
      expect(second.stderr).toContain(`Cannot listen on 127.0.0.1:${port}: the port is in use`);
    } finally {
      await first.stop();
    }
  });
});
