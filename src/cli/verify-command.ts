import { parseArgs } from 'node:util';
import { GoldenError } from '../errors.js';
import { writeFileAtomic } from '../store/golden-file.js';
import { compileVolatile, mergeVolatile, NAMED_MASKS } from '../transcript/volatile.js';
import { findGoldens } from '../verify/find-goldens.js';
import { redactSecrets, targetSecrets } from '../verify/target-secrets.js';
import { verifyGoldens } from '../verify/verify-goldens.js';
import { buildVerifyReport, formatReportTail, formatVerdictLine } from '../verify/verify-report.js';
import { parseIntegerOption } from './parse-integer-option.js';
import { parseTargetOptions, TARGET_OPTION_SPECS, TARGET_USAGE } from './target-options.js';
import { loadVerifyConfig } from './verify-config.js';

export const VERIFY_USAGE = `Usage: mcp-golden verify (--stdio '<command line>' | --target <url> [--header 'Name: value']...)
                         [--ignore <path>]... [--mask <regex>]... [--fail-on any|breaking]
                         [--update] [--json FILE] [--concurrency N] <golden | dir>...

Re-runs, against the live server, the client session each golden was recorded from (handshake,
tools/list, the call with its token, answers and cancellation) and compares what the server sends
now: results, errors, progress notifications (count, order, token, content, and whether they still
stream), server requests and the tool list (each change classified breaking or compatible).
${TARGET_USAGE}
  --ignore PATH             an RFC 9535 JSONPath over each JSON-RPC message whose value is not
                            compared: '$.result.content[1].text', '$..generatedAt' (repeatable)
  --mask REGEX              replace every match inside any string by a placeholder on both sides
                            before comparing; built in: ${Object.keys(NAMED_MASKS).join(', ')} (repeatable)
  --fail-on any|breaking    breaking: compatible tool-schema changes are reported but pass (default: any)
  --update                  rewrite, atomically, only the goldens that differ; exit 0
  --json FILE               write the verdict as JSON
  --concurrency N           goldens verified at once (default: the number of cores); the report
                            keeps the goldens' order
Ignores and masks can also be set in mcp-golden.config.json ({"verify": {"ignore": [], "mask": [],
"goldens": {"<name>": {...}}}}) and per scenario ("ignore", "mask"); a golden records the ones used.
Exit 0 when every golden matches, 1 when any differs, 2 on usage errors.`;

/** `mcp-golden verify`. */
export async function verifyCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...TARGET_OPTION_SPECS,
      ignore: { type: 'string', multiple: true },
      mask: { type: 'string', multiple: true },
      'fail-on': { type: 'string', default: 'any' },
      update: { type: 'boolean', default: false },
      json: { type: 'string' },
      concurrency: { type: 'string' },
    },
  });
  const target = parseTargetOptions(values);
  if (!target) {
    throw new GoldenError(
      'E_USAGE',
      "verify needs the live server: --stdio '<command line>' or --target <url>. For example: mcp-golden verify --stdio 'node dist/server.js' goldens/",
    );
  }
  const failOn = values['fail-on'];
  if (failOn !== 'any' && failOn !== 'breaking') {
    throw new GoldenError('E_USAGE', `Invalid --fail-on "${failOn}": expected any or breaking.`);
  }
  if (positionals.length === 0) {
    throw new GoldenError(
      'E_USAGE',
      'Missing goldens: name golden files or directories, e.g. `mcp-golden verify --stdio "node dist/server.js" goldens/`.',
    );
  }
  const flags = { ignore: values.ignore ?? [], mask: values.mask ?? [] };
  compileVolatile(flags, 'on the command line');
  const config = await loadVerifyConfig(process.cwd());
  const concurrency = parseIntegerOption('concurrency', values.concurrency, 1, 256);
  const files = await findGoldens(positionals);
  const secrets = targetSecrets(target);
  const say = (text: string): void => {
    process.stdout.write(`${redactSecrets(text, secrets)}\n`);
  };
  const started = performance.now();
  const verdicts = await verifyGoldens(files, {
    target,
    volatile: mergeVolatile(config.volatile, flags),
    volatileFor: config.volatileFor,
    failOn,
    update: values.update,
    ...(concurrency !== undefined && { concurrency }),
    redactText: (text) => redactSecrets(text, secrets),
    onVerdict: (verdict) => say(formatVerdictLine(verdict)),
  });
  const report = buildVerifyReport(verdicts, { failOn, update: values.update, ms: performance.now() - started });
  for (const line of formatReportTail(report)) say(line);
  if (values.json !== undefined) {
    await writeFileAtomic(values.json, `${redactSecrets(JSON.stringify(report, null, 2), secrets)}\n`);
  }
  return report.pass ? 0 : 1;
}
