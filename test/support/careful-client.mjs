#!/usr/bin/env node
// A careful MCP client on raw fetch, following `mcp-golden check --client`'s contract: what every row
// of the client check expects of a client, in both eras. `--fault NAME` (repeatable, before the URL)
// breaks exactly one behaviour each (careful-client/faults.mjs); test/support/client-faults.ts lists
// the rows each fault must fail.
//   MCP_GOLDEN_PLAN='{"calls":[...]}' MCP_CONFORMANCE_PROTOCOL_VERSION=2026-07-28 \
//     node test/support/careful-client.mjs [--fault NAME]... [--time-scale X] URL
// Its timeouts (careful-client/timeouts.mjs): a call silent for 100 s, or running 150 s, is given up.
import { failEveryCall, flushStdout, readContract, runPlan } from '../../clients/contract.mjs';
import { readFaults } from './careful-client/faults.mjs';
import { LegacySession } from './careful-client/legacy-session.mjs';
import { ModernSession } from './careful-client/modern-session.mjs';
import { readTimeScale, withTimeouts } from './careful-client/timeouts.mjs';

const argv = process.argv.slice(2);
const faults = readFaults(argv);
const scale = readTimeScale(argv);
const planned = readContract('careful-client.mjs', argv);
// The cancel-early fault: every abort comes 50 ms after the call is sent.
const contract = faults.has('cancel-early')
  ? { ...planned, calls: planned.calls.map((c) => (c.abortAfterMs === null ? c : { ...c, abortAfterMs: 50 })) }
  : planned;
const session =
  contract.era === '2026-07-28' ? new ModernSession(contract.url, faults) : new LegacySession(contract.url, faults);

let code = 0;
try {
  await session.connect();
} catch (error) {
  failEveryCall(contract, error);
  code = 1;
}
const lingering = [];
if (code === 0)
  await runPlan(
    contract,
    withTimeouts((call, hooks) => session.callTool(call, hooks), faults, scale, lingering),
  );
await Promise.all(lingering);
await session.close();
await flushStdout();
process.exit(code);
