import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordGoldens } from '../../../src/record/record-goldens.js';
import type { Scenario } from '../../../src/record/scenario.js';
import { type ReferenceServer, startReferenceServer } from '../../../src/server/http-server.js';
import { type FakeCallMode, startFakeMcpServer } from '../../support/fake-mcp-server.js';
import { runInProcess } from '../../support/in-process-cli.js';
import { EVERYTHING } from '../../support/server-everything.js';

let dir: string;
let reference: ReferenceServer;
const scenarioFile = async (name: string, scenarios: unknown[]): Promise<string> => {
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(scenarios));
  return file;
};
const work: Scenario[] = [{ name: 'work', tool: 'work', progressToken: 't' }];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-golden-record-target-'));
  reference = await startReferenceServer();
});
afterAll(async () => {
  await reference.close();
  await rm(dir, { recursive: true, force: true });
});

async function recordFake(mode: FakeCallMode, scenarios: unknown[], status?: number) {
  const server = await startFakeMcpServer(mode, status);
  try {
    const out = join(dir, `out-${mode}-${status ?? 'ok'}`);
    const file = await scenarioFile(`${mode}-${status}`, scenarios);
    const result = await runInProcess(['record', '--target', server.url, '--scenarios', file, '--out', out]);
    const files = await readdir(out).catch(() => [] as string[]);
    return { ...result, out, files, requests: server.requests };
  } finally {
    await server.close();
  }
}

/** The same through the library (no CLI process): faster, for what does not depend on the CLI. */
async function recordFakeInProcess(mode: FakeCallMode, scenarios: Scenario[], status?: number) {
  const server = await startFakeMcpServer(mode, status);
  try {
    const out = join(dir, `lib-${mode}-${status ?? 'ok'}`);
    const error = await recordGoldens({ target: server.url, scenarios, outDir: out }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    const files = await readdir(out).catch(() => [] as string[]);
    return { error, out, files, requests: server.requests };
  } finally {
    await server.close();
  }
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const noStack = (stderr: string): void => {
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(stderr).not.toContain('unexpected error');
};

describe('mcp-golden record --target/--stdio: errors, never silent goldens', () => {
  test('a refused connection says so and how to fix it', async () => {
    const file = await scenarioFile('refused', work);
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    const result = await runInProcess(['record', '--target', url, '--scenarios', file, '--out', join(dir, 'refused')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`[mcp-golden] Cannot connect to ${url}: the connection was refused (ECONNREFUSED`);
    expect(result.stderr).toContain('Start the server first');
    noStack(result.stderr);
  });

  test('an unknown host is a DNS failure', async () => {
    const file = await scenarioFile('dns', work);
    const result = await runInProcess(['record', '--target', 'http://no-such-host.invalid/mcp', '--scenarios', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /\[mcp-golden\] Cannot connect to http:\/\/no-such-host\.invalid\/mcp: the host name does not resolve \((ENOTFOUND|EAI_AGAIN)/,
    );
    noStack(result.stderr);
  });

  test('TLS to a plain HTTP port is a TLS failure', async () => {
    const file = await scenarioFile('tls', work);
    const url = reference.url.replace('http://', 'https://');
    const result = await runInProcess(['record', '--target', url, '--scenarios', file, '--out', join(dir, 'tls')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`[mcp-golden] Cannot connect to ${url}: the TLS handshake failed`);
    expect(result.stderr).toContain('NODE_EXTRA_CA_CERTS');
    noStack(result.stderr);
  });

  test('401 and 403 hint at --header', async () => {
    for (const status of [401, 403]) {
      const result = await recordFakeInProcess('no-result', work, status);
      expect(result.error?.message).toContain(
        `failed: HTTP ${status}: no credentials. Expected HTTP 200. The server wants credentials: pass them with --header 'Authorization: Bearer $TOKEN'`,
      );
      expect(result.files).toEqual([]);
    }
  });

  test('a missing stdio command is named', async () => {
    const file = await scenarioFile('enoent', work);
    const result = await runInProcess([
      'record',
      '--stdio',
      'no-such-mcp-server --flag',
      '--scenarios',
      file,
      '--out',
      join(dir, 'enoent'),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '[mcp-golden] Cannot start the stdio server "no-such-mcp-server --flag": the command "no-such-mcp-server" was not found (ENOENT)',
    );
    noStack(result.stderr);
  });

  test('a stdio server that exits early shows the tail of its stderr', async () => {
    const file = await scenarioFile('early-exit', work);
    const script = "process.stderr.write('loading config\\nFATAL: missing DATABASE_URL\\n'); process.exit(3)";
    const result = await runInProcess([
      'record',
      '--stdio',
      `'${process.execPath}' -e "${script}"`,
      '--scenarios',
      file,
      '--out',
      join(dir, 'early'),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /exited with code 3 before the recording finished\. .*Its stderr ended with:\nloading config\nFATAL: missing DATABASE_URL\n/s,
    );
    noStack(result.stderr);
  });

  test('an unknown tool fails naming it and listing the server tools, unless the scenario expects the error', async () => {
    const file = await scenarioFile('unknown', [{ name: 'typo', tool: 'progres' }]);
    const out = join(dir, 'unknown');
    const result = await runInProcess(['record', '--target', reference.url, '--scenarios', file, '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '[mcp-golden] Cannot record "typo": the server has no tool "progres". Expected one of: ',
    );
    expect(result.stderr).toMatch(/Expected one of: .*progress.*long_output.*chatty/);
    expect(await readdir(out).catch(() => [])).toEqual([]);
    const expected = await scenarioFile('unknown-ok', [{ name: 'typo', tool: 'progres', expectError: true }]);
    const ok = await runInProcess(['record', '--target', reference.url, '--scenarios', expected, '--out', out]);
    expect(ok.code).toBe(0);
    expect(await readFile(join(out, 'typo.jsonl'), 'utf8')).toContain('"expectError":true');
  });

  test('a call that ends without a result fails and writes no golden', async () => {
    const result = await recordFake('no-result', work);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '[mcp-golden] Recording "work" failed: the stream ended without a result. Expected the tools/call result.',
    );
    expect(result.files).toEqual([]);
  });

  test('a server request without an answer fails and names the "answers" entry to add', async () => {
    const result = await recordFakeInProcess('sampling', [{ name: 'ask', tool: 'work' }]);
    expect(result.error?.message).toContain(
      'the server sent a sampling/createMessage request and the scenario has no answer for it',
    );
    expect(result.error?.message).toContain('Add "answers": {"sampling/createMessage": <result>}');
    expect(result.files).toEqual([]);
  });
});

describe('recording a whole client session', () => {
  test('answers a server request from "answers" and declares the capability', async () => {
    const answer = { role: 'assistant', content: { type: 'text', text: 'yes' }, model: 'm' };
    const result = await recordFakeInProcess('sampling', [
      { name: 'ask', tool: 'work', answers: { 'sampling/createMessage': answer } },
    ]);
    expect(result.error).toBeUndefined();
    const init = result.requests.find((r) => r.body.includes('"initialize"'));
    expect(JSON.parse(init?.body ?? '{}').params.capabilities).toEqual({ sampling: {} });
    expect(
      result.requests.some((r) => r.body === JSON.stringify({ jsonrpc: '2.0', id: 'ask-1', result: answer })),
    ).toBe(true);
    expect(await readFile(join(result.out, 'ask.jsonl'), 'utf8')).toContain('\\"model\\":\\"m\\"');
  });

  test('reconnects with Last-Event-ID after a graceful close, as retry asks, and records the result', async () => {
    const result = await recordFakeInProcess('close-then-resume', work);
    expect(result.error).toBeUndefined();
    const get = result.requests.find((r) => r.method === 'GET');
    expect(get?.headers['last-event-id']).toBe('e1');
    const text = await readFile(join(result.out, 'work.jsonl'), 'utf8');
    expect(text).toContain('"method":"GET"');
    expect(text).toContain('resumed');
  });

  test('reconnects with Last-Event-ID after a dropped connection and records the result', async () => {
    const result = await recordFakeInProcess('drop-then-resume', work);
    expect(result.error).toBeUndefined();
    expect(result.requests.find((r) => r.method === 'GET')?.headers['last-event-id']).toBe('e1');
    expect(await readFile(join(result.out, 'work.jsonl'), 'utf8')).toContain('resumed');
  });
});

describe('no secrets in goldens', () => {
  test('a secret in the URL (userinfo, query), a header and a command argument or env never reaches the file', async () => {
    const server = await startFakeMcpServer('close-then-resume');
    try {
      const url = `${server.url.replace('http://', 'http://alice:url-pass-7781@')}?api_key=query-secret-4242`;
      const file = await scenarioFile('secrets', work);
      const out = join(dir, 'secrets-http');
      const result = await runInProcess([
        'record',
        '--target',
        url,
        '--header',
        'X-Api-Token: header-secret-9090',
        '--scenarios',
        file,
        '--out',
        out,
      ]);
      expect(result.code).toBe(0);
      const post = server.requests[0];
      expect(post?.headers.authorization).toBe(`Basic ${Buffer.from('alice:url-pass-7781').toString('base64')}`);
      expect(post?.headers['x-api-token']).toBe('header-secret-9090');
      const text = await readFile(join(out, 'work.jsonl'), 'utf8');
      for (const secret of ['url-pass-7781', 'alice', 'query-secret-4242', 'header-secret-9090', 'YWxpY2']) {
        expect(text, secret).not.toContain(secret);
      }
      expect(text.split('\n')[0]).toContain(`"target":"${server.url}?api_key=<redacted>"`);
      expect(text).toContain('"x-api-token":"<redacted>"');
    } finally {
      await server.close();
    }
  });

  test('secret-named arguments and environment of a stdio server are redacted, even when the server echoes them', async () => {
    const file = await scenarioFile('env', [{ name: 'env', tool: 'get-env' }]);
    const out = join(dir, 'secrets-stdio');
    const line = `API_KEY=env-secret-5151 '${process.execPath}' '${EVERYTHING}' stdio --token arg-secret-6262`;
    const result = await runInProcess(['record', '--stdio', line, '--scenarios', file, '--out', out]);
    expect(result.code).toBe(0);
    const text = await readFile(join(out, 'env.jsonl'), 'utf8');
    expect(text).not.toContain('env-secret-5151');
    expect(text).not.toContain('arg-secret-6262');
    expect(text.split('\n')[0]).toContain('stdio --token <redacted>');
    // The server did echo its environment: the variable is there, its value is not.
    expect(text).toContain('API_KEY');
    expect(text).toContain('<redacted>');
  });
});
