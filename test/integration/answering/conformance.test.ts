import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureConformance } from '../../../scripts/conformance/install.mjs';
import { startSdkV2Reference } from '../../../scripts/conformance/sdk-v2-reference.mjs';
import {
  type Check,
  RECORDED_SCENARIOS,
  regressions,
  runScenario,
  SCENARIOS,
  table,
  tally,
} from '../../../scripts/conformance/suite.mjs';
import { runInProcess, type StartedInProcess, startInProcess } from '../../support/in-process-cli.js';

// The official MCP conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha.12, installed into
// .conformance/ by scripts/conformance/install.mjs; .ci/run installs it before the tests, and this file
// installs it when it is missing) against the SDK v2 2.4.0 server serving the reference tools, dual-era
// `serve`, a replay of goldens recorded from that serve in both eras, and a replay of its 2025 goldens
// alone (re-framed for 2026-07-28 clients): every check the SDK v2 server passes, the others pass too.
// The suite is a process of its own (a CLI loaded with a module hook).

const names = ['SDK v2', 'serve', 'replay', 'replay of 2025 goldens'] as const;
const servers: {
  sdk?: { url: string; close(): Promise<void> };
  serve?: StartedInProcess;
  replay?: StartedInProcess;
  crossEra?: StartedInProcess;
} = {};
const goldens = mkdtempSync(join(tmpdir(), 'mcp-golden-conformance-test-'));
const urls: Record<(typeof names)[number], string> = {
  'SDK v2': '',
  serve: '',
  replay: '',
  'replay of 2025 goldens': '',
};

beforeAll(async () => {
  ensureConformance();
  servers.sdk = await startSdkV2Reference({ legacy: 'stateless' });
  servers.serve = await startInProcess(['serve', '--port', '0']);
  for (const era of ['modern', 'legacy']) {
    const list = join(tmpdir(), `mcp-golden-conformance-${process.pid}-${era}.json`);
    writeFileSync(list, JSON.stringify(RECORDED_SCENARIOS.map((s) => ({ ...s, name: `${s.name}-${era}` }))));
    const recorded = await runInProcess(
      ['record', '--target', servers.serve.firstLine, '--scenarios', list, '--era', era, '--out', goldens],
      { timeoutMs: 60_000 },
    );
    rmSync(list);
    expect(recorded.code, recorded.stderr).toBe(0);
  }
  servers.replay = await startInProcess(['replay', goldens, '--pace', 'instant', '--port', '0']);
  const legacy = RECORDED_SCENARIOS.map((s) => join(goldens, `${s.name}-legacy.jsonl`));
  servers.crossEra = await startInProcess(['replay', ...legacy, '--pace', 'instant', '--port', '0']);
  Object.assign(urls, {
    'SDK v2': servers.sdk.url,
    serve: servers.serve.firstLine,
    replay: servers.replay.firstLine,
    'replay of 2025 goldens': servers.crossEra.firstLine,
  });
}, 120_000);

afterAll(async () => {
  await Promise.all([servers.sdk?.close(), servers.serve?.stop(), servers.replay?.stop(), servers.crossEra?.stop()]);
  rmSync(goldens, { recursive: true, force: true });
});

/** What the SDK v2 server scores (the suite's own "Passed: n/m"), as docs/server-authors.md shows it. */
const REFERENCE_SCORE: Record<string, { passed: number; total: number }> = {
  'server-stateless': { passed: 24, total: 28 },
  'http-header-validation': { passed: 14, total: 14 },
};

describe('the official conformance suite', () => {
  test.each(SCENARIOS.map((s) => [s.name, s] as const))(
    '%s: serve and the replays pass every check the SDK v2 server passes',
    async (name, scenario) => {
      const runs = await Promise.all(names.map((server) => runScenario(urls[server], scenario)));
      const results = Object.fromEntries(names.map((server, i) => [server, runs[i] as Check[]]));
      const sdk = tally(results['SDK v2'] ?? []);
      // The reference scores what the guide says (a broken install or run would fail every check alike).
      expect({ passed: sdk.passed, total: sdk.total }).toEqual(REFERENCE_SCORE[name]);
      expect(regressions(table(results), 'SDK v2', names.slice(1))).toEqual([]);
    },
    120_000,
  );
});
