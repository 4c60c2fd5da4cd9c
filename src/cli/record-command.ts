import { parseArgs } from 'node:util';
import { loadScenarioFile, loadStandardScenarios, recordGoldens } from '../record/record-goldens.js';

export const RECORD_USAGE = `Usage: mcp-golden record [scenario...] [--out DIR] [--scenarios FILE] [--list]

Regenerates goldens from the live reference server (started and stopped by the command),
one JSON Lines file per scenario, each written atomically.
  scenario...       names to record (default: every scenario in the list)
  --out DIR         where to write (default: goldens)
  --scenarios FILE  a JSON array of scenarios (default: the standard list)
  --list            print the scenario names and descriptions, record nothing`;

/** `mcp-golden record`. */
export async function recordCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: 'string', default: 'goldens' },
      scenarios: { type: 'string' },
      list: { type: 'boolean', default: false },
    },
  });
  const scenarios = values.scenarios ? await loadScenarioFile(values.scenarios) : await loadStandardScenarios();
  if (values.list) {
    for (const s of scenarios) process.stdout.write(`${(s.name ?? '').padEnd(34)} ${s.description ?? ''}\n`);
    return 0;
  }
  const started = performance.now();
  const result = await recordGoldens({
    outDir: values.out,
    names: positionals,
    scenarios,
    onRecorded: (r) =>
      process.stderr.write(
        `[mcp-golden] recorded ${r.path.padEnd(52)} ${String(r.frames).padStart(4)} frames ${String(r.ms).padStart(6)} ms\n`,
      ),
  });
  for (const path of result.obsolete) {
    process.stderr.write(`[mcp-golden] obsolete: ${path} matches no scenario; delete it if it is no longer wanted\n`);
  }
  process.stderr.write(
    `[mcp-golden] ${result.recorded.length} golden(s) written to ${values.out} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return 0;
}
