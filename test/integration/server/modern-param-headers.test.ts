import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ReferenceServer, startReferenceServer } from '../../../src/server/http-server.js';
import { type SdkV2Server, startSdkV2Server } from '../../support/sdk-v2-server.js';

// SEP-2243: an argument a tool marks with x-mcp-header travels in Mcp-Param-{Name} too, and a
// 2026-07-28 server refuses a header that is missing, disagrees, or is bad base64 (400, -32020).
// serve (the check's upstream) must answer as the SDK v2 server does, so the same bad requests go
// to both: serve's check tools mark `tag` (Mcp-Param-Tag), the SDK fixture's `greet` marks `name`
// (Mcp-Param-Name).

let serve: ReferenceServer;
let sdk: SdkV2Server;
beforeAll(async () => {
  [serve, sdk] = await Promise.all([
    startReferenceServer({ checkTools: true }),
    startSdkV2Server({ legacy: 'reject' }),
  ]);
});
afterAll(async () => {
  await Promise.all([serve.close(), sdk.close()]);
});

const base64 = (text: string): string => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
const NON_ASCII = 'Zoë 東京';

interface Target {
  readonly url: () => string;
  readonly tool: string;
  readonly argument: string;
  readonly header: string;
  readonly otherArguments: Record<string, unknown>;
}

const TARGETS: Record<'serve' | 'sdk', Target> = {
  serve: {
    url: () => serve.url,
    tool: 'progress_tight',
    argument: 'tag',
    header: 'mcp-param-tag',
    otherArguments: { steps: 1, step_ms: 0 },
  },
  sdk: { url: () => sdk.url, tool: 'greet', argument: 'name', header: 'mcp-param-name', otherArguments: {} },
};

/** One modern tools/call with the argument `value` in the body and `header` (or none) as its Mcp-Param-*. */
async function call(
  target: Target,
  value: string,
  header: string | undefined,
): Promise<{ status: number; code?: number; text: string }> {
  const response = await fetch(target.url(), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': target.tool,
      ...(header !== undefined && { [target.header]: header }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: {
        name: target.tool,
        arguments: { ...target.otherArguments, [target.argument]: value },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'param-headers-test', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  const text = await response.text();
  const code = response.status === 400 ? (JSON.parse(text) as { error?: { code?: number } }).error?.code : undefined;
  return { status: response.status, ...(code !== undefined && { code }), text };
}

const CASES: readonly { name: string; value: string; header: string | undefined; refused: boolean }[] = [
  { name: 'non-ASCII in the base64 form', value: NON_ASCII, header: base64(NON_ASCII), refused: false },
  { name: 'ASCII as is', value: 'Zoe', header: 'Zoe', refused: false },
  { name: 'ASCII in the base64 form', value: 'Zoe', header: base64('Zoe'), refused: false },
  { name: 'missing', value: NON_ASCII, header: undefined, refused: true },
  { name: 'disagreeing, as is', value: NON_ASCII, header: 'Zoe', refused: true },
  { name: 'disagreeing, in the base64 form', value: NON_ASCII, header: base64('Zoe'), refused: true },
  { name: 'not canonical base64', value: NON_ASCII, header: '=?base64?@@not-base64@@?=', refused: true },
  { name: 'differing in case', value: 'Zoe', header: 'zoe', refused: true },
];

describe('serve validates Mcp-Param-* as the SDK v2 server does', () => {
  test.each(CASES)('$name: the same status and code from both', async ({ value, header, refused }) => {
    const [fromServe, fromSdk] = await Promise.all([
      call(TARGETS.serve, value, header),
      call(TARGETS.sdk, value, header),
    ]);
    expect({ status: fromServe.status, code: fromServe.code }).toEqual({ status: fromSdk.status, code: fromSdk.code });
    expect(fromServe.status).toBe(refused ? 400 : 200);
    if (refused) {
      expect(fromServe.code).toBe(-32020);
      expect(fromServe.text).toContain('mcp-param-tag');
    }
  });

  test('a refused call never reaches the tool: the audit log has no row for it', async () => {
    const tag = `never-run-${process.pid}`;
    const before = serve.audit.entries().length;
    const answer = await call(TARGETS.serve, tag, 'something-else');
    expect(answer.code).toBe(-32020);
    expect((JSON.parse(answer.text) as { error: { message: string } }).error.message).toMatch(
      /the mcp-param-tag header decodes to "something-else", the body says tag=/,
    );
    expect(
      serve.audit
        .entries()
        .slice(before)
        .filter((row) => JSON.stringify(row).includes(tag)),
    ).toEqual([]);
  });
});
