import { parseArgs } from 'node:util';
import { GoldenError } from '../errors.js';
import type { RecordTarget } from '../record/record-call.js';
import {
  loadScenarioFile,
  loadStandardScenarios,
  type RecordedGolden,
  type RecordGoldensResult,
  recordGoldens,
} from '../record/record-goldens.js';
import { recordReferenceGoldens } from '../reference-goldens.js';
import { CONFIG_FILE, loadRecordConfig } from './record-config.js';
import { parseTargetOptions, TARGET_OPTION_SPECS, TARGET_USAGE } from './target-options.js';

export const RECORD_USAGE = `Usage: mcp-golden record [scenario...] [--out DIR] [--scenarios FILE] [--list]
       mcp-golden record --stdio '<command line>' --scenarios FILE --out DIR
       mcp-golden record --target URL [--header 'Name: value']... --scenarios FILE --out DIR

Records goldens, one JSON Lines file per scenario (DIR/<name>.jsonl), each written atomically.
Each recording is a whole client session: initialize, tools/list, the call, answers to the
server's requests from the scenario's "answers", reconnection with Last-Event-ID. Secrets in the
target (URL query and userinfo, headers, secret-named arguments and environment) are redacted.
Without --stdio/--target (and no config), it records the reference server (started and stopped here).
${TARGET_USAGE}
  scenario...               names to record (default: every scenario in the list)
  --scenarios FILE          a JSON array of scenarios (default: the reference server's standard list;
                            required for --stdio/--target)
  --out DIR                 where to write (default: goldens)
  --config FILE             record settings (default: ./${CONFIG_FILE}, else "mcp-golden" in package.json)
  --list                    print the scenario names and descriptions, record nothing`;

function print(r: RecordedGolden): void {
  process.stderr.write(
    `[mcp-golden] recorded ${r.path.padEnd(52)} ${String(r.frames).padStart(4)} frames ${String(r.ms).padStart(6)} ms\n`,
  );
}

/** `mcp-golden record`: the reference server, or any server given by `--stdio`/`--target` or the config file. */
export async function recordCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...TARGET_OPTION_SPECS,
      out: { type: 'string' },
      scenarios: { type: 'string' },
      config: { type: 'string' },
      list: { type: 'boolean', default: false },
    },
  });
  const fromOptions = parseTargetOptions(values);
  const config = fromOptions ? undefined : await loadRecordConfig(process.cwd(), values.config);
  const target: RecordTarget | undefined =
    fromOptions ??
    (config && parseTargetOptions({ stdio: config.stdio, target: config.target, header: config.headers }));
  const scenariosFile = values.scenarios ?? config?.scenarios;
  const out = values.out ?? config?.out ?? 'goldens';
  if (target && scenariosFile === undefined) {
    throw new GoldenError(
      'E_USAGE',
      `Missing --scenarios FILE: recording ${values.stdio !== undefined || config?.stdio !== undefined ? '--stdio' : '--target'} needs your own scenario list (the standard list calls the reference server's tools). Expected a JSON array like [{"name": "echo", "tool": "echo", "arguments": {"message": "hi"}}]; pass it with --scenarios FILE.`,
    );
  }
  const scenarios = scenariosFile ? await loadScenarioFile(scenariosFile) : await loadStandardScenarios();
  if (values.list) {
    for (const s of scenarios) process.stdout.write(`${(s.name ?? '').padEnd(34)} ${s.description ?? ''}\n`);
    return 0;
  }
  const started = performance.now();
  const options = { outDir: out, names: positionals, scenarios, onRecorded: print };
  const result: RecordGoldensResult = target
    ? await recordGoldens({ ...options, target })
    : await recordReferenceGoldens(options);
  for (const path of result.obsolete) {
    process.stderr.write(`[mcp-golden] obsolete: ${path} matches no scenario; delete it if it is no longer wanted\n`);
  }
  process.stderr.write(
    `[mcp-golden] ${result.recorded.length} golden(s) written to ${out} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return 0;
}
