import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordCall } from '../../../src/record/record-call.js';
import { createReplayServer, type ReplayServer } from '../../../src/replay/replay-server.js';
import { type ReferenceServer, startReferenceServer } from '../../../src/server/http-server.js';
import { CONFORMANCE_CASES } from '../../support/conformance-battery.js';
import {
  type Answer,
  type BatteryCase,
  envelope,
  LEGACY_CASES,
  MODERN,
  MODERN_CASES,
  send,
  TOOL,
} from '../../support/request-battery.js';
import { type SdkV2Server, startSdkV2Server } from '../../support/sdk-v2-server.js';

// The same requests go to the SDK v2 2.4.0 server (createMcpHandler, the reference) and to serve and
// replay: each must get the same HTTP status and JSON-RPC error code. Modern-only serve
// (`legacy: 'reject'`) stands beside `legacy: 'reject'`; dual-era serve and the replay (2026-07-28
// and 2025 goldens) beside `legacy: 'stateless'`.

let sdkReject: SdkV2Server;
let sdkStateless: SdkV2Server;
let serveModernOnly: ReferenceServer;
let serveDual: ReferenceServer;
let replay: ReplayServer;
/** A replay of 2025 goldens alone: it re-frames them for 2026-07-28 clients. */
let crossEra: ReplayServer;

beforeAll(async () => {
  [sdkReject, sdkStateless, serveModernOnly, serveDual] = await Promise.all([
    startSdkV2Server({ legacy: 'reject' }),
    startSdkV2Server({ legacy: 'stateless' }),
    startReferenceServer({ legacy: 'reject' }),
    startReferenceServer(),
  ]);
  const modern = await recordCall(serveDual.url, {
    name: 'battery-progress',
    tool: TOOL,
    arguments: { steps: 1, step_ms: 1 },
    era: 'modern',
  });
  const legacy = await recordCall(serveDual.url, { name: 'battery-chatty', tool: 'chatty' });
  const legacyProgress = await recordCall(serveDual.url, {
    name: 'battery-progress-2025',
    tool: TOOL,
    arguments: { steps: 1, step_ms: 1 },
  });
  replay = await createReplayServer([modern, legacy], { pace: 'instant', onUnmatchedRequest: () => undefined });
  crossEra = await createReplayServer([legacy, legacyProgress], {
    pace: 'instant',
    onUnmatchedRequest: () => undefined,
  });
}, 60_000);
afterAll(async () => {
  await Promise.all([
    sdkReject.close(),
    sdkStateless.close(),
    serveModernOnly.close(),
    serveDual.close(),
    replay.close(),
    crossEra.close(),
  ]);
});

const shown = (answer: Answer): string => `${answer.status} ${answer.code ?? '-'}`;

/** The answers of the reference and each target to one request, as `status code` lines, for one readable diff. */
async function answers(request: BatteryCase, reference: () => string, targets: Record<string, () => string>) {
  const [expected, ...got] = await Promise.all(
    [reference(), ...Object.values(targets).map((t) => t())].map((url) => send(url, request)),
  );
  const names = Object.keys(targets);
  return {
    expected: Object.fromEntries(names.map((name) => [name, shown(expected as Answer)])),
    got: Object.fromEntries(names.map((name, i) => [name, shown(got[i] as Answer)])),
  };
}

// 2025 requests whose answer depends on a session: the SDK v2 stateless fallback has none (202 for a
// notification or a posted response, 405 for a GET), while the 2025 reference is a stateful SDK v1
// server (serve's legacy side is that transport: 400 without a session id).
const SESSION_BOUND = new Set(['2025 notification', 'a posted JSON-RPC response', 'GET without a session']);

describe('serve --modern-only answers as createMcpHandler with legacy: reject', () => {
  test.each([...MODERN_CASES, ...CONFORMANCE_CASES, ...LEGACY_CASES].map((c) => [c.name, c] as const))(
    '%s',
    async (_name, request) => {
      const { expected, got } = await answers(request, () => sdkReject.url, { serve: () => serveModernOnly.url });
      expect(got).toEqual(expected);
    },
  );
});

describe('dual-era serve and replay answer as createMcpHandler with legacy: stateless', () => {
  const cases = [...MODERN_CASES, ...CONFORMANCE_CASES, ...LEGACY_CASES.filter((c) => !SESSION_BOUND.has(c.name))];
  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, request) => {
    const { expected, got } = await answers(request, () => sdkStateless.url, {
      serve: () => serveDual.url,
      replay: () => replay.url,
    });
    expect(got).toEqual(expected);
  });
});

describe('a replay of 2025 goldens answers 2026-07-28 requests as createMcpHandler with legacy: stateless', () => {
  test.each([...MODERN_CASES, ...CONFORMANCE_CASES].map((c) => [c.name, c] as const))('%s', async (_name, request) => {
    const { expected, got } = await answers(request, () => sdkStateless.url, {
      'replay of 2025 goldens': () => crossEra.url,
    });
    expect(got).toEqual(expected);
  });
});

const PV = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

/** Generated 2026-07-28-ish requests: every header and envelope field present, absent, agreeing or not. */
const generated: fc.Arbitrary<BatteryCase> = fc
  .record({
    method: fc.constantFrom(
      'tools/list',
      'server/discover',
      'tools/call',
      'prompts/get',
      'subscriptions/listen',
      'ping',
      'no/such',
    ),
    notification: fc.boolean(),
    versionHeader: fc.constantFrom(undefined, MODERN, '2025-11-25', '2099-01-01', 'garbage'),
    envelopeVersion: fc.constantFrom('absent', MODERN, '2025-11-25', 20260728, 'no-meta'),
    caps: fc.constantFrom('absent', 'object', 'string'),
    methodHeader: fc.constantFrom('absent', 'same', 'other', 'base64'),
    nameHeader: fc.constantFrom('absent', 'same', 'other', 'base64', 'base64-unpadded', 'broken', ' same '),
  })
  .map((g) => {
    const meta: Record<string, unknown> = { ...envelope() };
    if (g.envelopeVersion === 'absent') delete meta[PV];
    else meta[PV] = g.envelopeVersion;
    if (g.caps === 'absent') delete meta[CAPS];
    if (g.caps === 'string') meta[CAPS] = 'all';
    const name = g.method === 'prompts/get' ? 'a-prompt' : TOOL;
    const params: Record<string, unknown> = {
      ...(g.method === 'tools/call' && { name, arguments: { steps: 1, step_ms: 1 } }),
      ...(g.method === 'prompts/get' && { name }),
      // A filter no target honors: an honored one holds the stream open (see request-battery.ts).
      ...(g.method === 'subscriptions/listen' && { notifications: { promptsListChanged: true } }),
      ...(g.envelopeVersion !== 'no-meta' && { _meta: meta }),
    };
    const nameValues: Record<string, string | undefined> = {
      absent: undefined,
      same: name,
      other: 'other-name',
      base64: `=?base64?${b64(name)}?=`,
      'base64-unpadded': `=?base64?${b64(name).replace(/=+$/, '')}?=`,
      broken: '=?base64?@@?=',
      ' same ': ` ${name} `,
    };
    const methodValues: Record<string, string | undefined> = {
      absent: undefined,
      same: g.method,
      other: 'tools/list' === g.method ? 'server/discover' : 'tools/list',
      base64: `=?base64?${b64(g.method)}?=`,
    };
    const headers: Record<string, string> = {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    };
    if (g.versionHeader !== undefined) headers['mcp-protocol-version'] = g.versionHeader;
    const methodHeader = methodValues[g.methodHeader];
    if (methodHeader !== undefined) headers['mcp-method'] = methodHeader;
    const nameHeader = nameValues[g.nameHeader];
    if (nameHeader !== undefined) headers['mcp-name'] = nameHeader;
    const message = { jsonrpc: '2.0', ...(!g.notification && { id: 7 }), method: g.method, params };
    return { name: JSON.stringify(g), httpMethod: 'POST' as const, headers, body: JSON.stringify(message) };
  })
  // A generated 2025 request would open a session on serve; the battery's 2025 cases cover that era.
  .filter((c) => c.body.includes(PV) || !['2025-11-25', undefined].includes(c.headers['mcp-protocol-version']));

describe('generated requests (fast-check over headers and envelope fields)', () => {
  test('serve --modern-only gives the status and code createMcpHandler (legacy: reject) gives', async () => {
    await fc.assert(
      fc.asyncProperty(generated, async (request) => {
        const { expected, got } = await answers(request, () => sdkReject.url, { serve: () => serveModernOnly.url });
        expect({ request: request.name, ...got }).toEqual({ request: request.name, ...expected });
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  test('dual-era serve and replay give the status and code createMcpHandler (legacy: stateless) gives', async () => {
    await fc.assert(
      fc.asyncProperty(generated, async (request) => {
        const { expected, got } = await answers(request, () => sdkStateless.url, {
          serve: () => serveDual.url,
          replay: () => replay.url,
        });
        expect({ request: request.name, ...got }).toEqual({ request: request.name, ...expected });
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
