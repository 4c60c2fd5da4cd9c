// The default `mcp-golden check` battery, end to end (upstream and gateway started and stopped):
// through an in-repo faithful byte-streaming gateway and through nginx (proxy_buffering off).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runGatewayCheck } from '../../dist/check/index.js';
import { interleaved } from './kit.mjs';

const support = (name) => fileURLToPath(new URL(`../../test/support/${name}`, import.meta.url));

const hasNginx = (() => {
  try {
    execFileSync('nginx', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Adds one row per gateway: the wall time of the whole default battery, which must pass. */
export async function run(rows) {
  const gateways = {
    'faithful proxy': `'${process.execPath}' '${support('faithful-gateway.mjs')}' {upstream} {port}`,
    ...(hasNginx && { nginx: `bash '${support('nginx-gateway.sh')}' {upstream} {port} faithful` }),
  };
  const failures = {};
  let rowCount = 0;
  const once = (name) => async () => {
    const report = await runGatewayCheck({ gateway: gateways[name], timeoutMs: 5000 });
    rowCount = report.results.length;
    if (!report.pass) {
      failures[name] = [
        ...(failures[name] ?? []),
        ...report.results.filter((r) => r.verdict === 'fail').map((r) => `${r.property}: ${r.evidence}`),
      ];
    }
  };
  const samples = await interleaved(Object.fromEntries(Object.keys(gateways).map((n) => [n, once(n)])), {
    runs: 3,
    warmup: 1,
  });
  for (const name of Object.keys(gateways)) {
    const failed = failures[name] ?? [];
    rows.add({
      figure: `check: default battery (${rowCount} properties) through ${name}`,
      samples: samples[name].map((ms) => ms / 1000),
      unit: 's',
      target: { op: '<=', value: 5 },
      note: failed.length === 0 ? 'every run passed' : `${failed.length} FALSE failures: ${failed[0]}`,
    });
  }
  if (!hasNginx)
    rows.add({
      figure: 'check: default battery through nginx',
      samples: Number.NaN,
      unit: 's',
      target: { op: '<=', value: 5 },
      note: 'nginx not installed: not measured',
    });
}
