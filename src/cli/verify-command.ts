import { GoldenError } from '../errors.js';
import type { Transcript } from '../transcript/frame.js';
import { NAMED_MASKS } from '../transcript/named-masks.js';
import { pathIn } from './cli-io.js';
import { defineCommand } from './command-spec.js';
import { parseTargetOptions, TARGET_OPTIONS, targetValues } from './target-options.js';

/** `mcp-golden verify`. */
export const verifyCommand = defineCommand({
  name: 'verify',
  summary: "re-run each golden's session against a live server and report what changed",
  operands: '<golden | dir>...',
  description: `Re-runs, against the live server (--stdio or --target), the client session each golden was
recorded from (handshake, tools/list, the call with its token, answers and cancellation) and
compares what the server sends now: results, errors, progress notifications (count, order, token,
content, and whether they still stream), server requests and the tool list (each change
classified breaking or compatible).`,
  options: {
    ...TARGET_OPTIONS,
    ignore: {
      type: 'string',
      value: 'PATH',
      multiple: true,
      description:
        "an RFC 9535 JSONPath over each JSON-RPC message whose value is not compared: '$.result.content[1].text', '$..generatedAt'",
    },
    mask: {
      type: 'string',
      value: 'REGEX',
      multiple: true,
      description: `replace every match inside any string by a placeholder on both sides before comparing; built in: ${Object.keys(NAMED_MASKS).join(', ')}`,
    },
    'fail-on': {
      type: 'string',
      value: 'any|breaking',
      choices: ['any', 'breaking'],
      default: 'any',
      description: 'breaking: compatible tool-schema changes are reported but pass',
    },
    update: { type: 'boolean', description: 'rewrite, atomically, only the goldens that differ; exit 0' },
    json: { type: 'string', value: 'FILE', description: 'write the verdict as JSON' },
    junit: { type: 'string', value: 'FILE', description: 'write a JUnit XML report: one test case per golden' },
    html: {
      type: 'string',
      value: 'FILE',
      description: "write one self-contained HTML page: each golden's calls on a shared time axis, with the diff",
    },
    sarif: {
      type: 'string',
      value: 'FILE',
      description: 'write a SARIF 2.1.0 log: each difference on its golden, each tool-schema change once',
    },
    concurrency: {
      type: 'string',
      value: 'N',
      integer: { min: 1, max: 256 },
      description: "goldens verified at once (default: the number of cores); the report keeps the goldens' order",
    },
  },
  epilog: `Ignores and masks can also be set in mcp-golden.config.json ({"verify": {"ignore": [], "mask": [],
"goldens": {"<name>": {...}}}}) and per scenario ("ignore", "mask"); a golden records the ones used.
Exit 0 when every golden matches, 1 when any differs, 2 on usage errors.`,
  async run(args, io) {
    // The implementation loads here, after parsing: `--help` and usage errors load none of it.
    const {
      timelineHtml,
      junitXml,
      sarifLog,
      readGolden,
      writeFileAtomic,
      compileVolatile,
      mergeVolatile,
      findGoldens,
      redactSecrets,
      targetSecrets,
      verifyGoldens,
      buildVerifyReport,
      formatReportTail,
      formatVerdictLine,
      SARIF_TOOL,
      verifyJunit,
      verifySarif,
      verifySections,
      loadProjectConfig,
      verifyConfigOf,
    } = await import('./verify-implementation.js');
    const target = parseTargetOptions(targetValues(args), 'verify');
    if (!target) {
      throw new GoldenError(
        'E_USAGE',
        "verify needs the live server: --stdio '<command line>' or --target <url>. For example: mcp-golden verify --stdio 'node dist/server.js' goldens/",
      );
    }
    const failOn = args.string('fail-on') === 'breaking' ? 'breaking' : 'any';
    if (args.operands.length === 0) {
      throw new GoldenError(
        'E_USAGE',
        'Missing goldens: name golden files or directories, e.g. `mcp-golden verify --stdio "node dist/server.js" goldens/`.',
      );
    }
    const flags = { ignore: args.strings('ignore'), mask: args.strings('mask') };
    compileVolatile(flags, 'on the command line');
    const config = verifyConfigOf(await loadProjectConfig(io.cwd));
    const concurrency = args.integer('concurrency');
    const files = await findGoldens(args.operands, io.cwd);
    const secrets = targetSecrets(target);
    const say = (text: string): void => {
      io.stdout.write(`${redactSecrets(text, secrets)}\n`);
    };
    const started = performance.now();
    const verdicts = await verifyGoldens(files, {
      target,
      volatile: mergeVolatile(config.volatile, flags),
      volatileFor: config.volatileFor,
      failOn,
      update: args.boolean('update'),
      ...(concurrency !== undefined && { concurrency }),
      redactText: (text) => redactSecrets(text, secrets),
      onVerdict: (verdict) => say(formatVerdictLine(verdict)),
    });
    const report = buildVerifyReport(verdicts, {
      failOn,
      update: args.boolean('update'),
      ms: performance.now() - started,
    });
    for (const line of formatReportTail(report)) say(line);
    const json = args.string('json');
    if (json !== undefined) {
      await writeFileAtomic(pathIn(io, json), `${redactSecrets(JSON.stringify(report, null, 2), secrets)}\n`);
    }
    const junit = args.string('junit');
    if (junit !== undefined)
      await writeFileAtomic(pathIn(io, junit), redactSecrets(junitXml(verifyJunit(report, io.cwd)), secrets));
    const html = args.string('html');
    if (html !== undefined) {
      const goldens = new Map<string, Transcript>();
      for (const file of files) {
        const golden = await readGolden(file).catch(() => undefined);
        if (golden) goldens.set(file, golden);
      }
      const summary = formatReportTail(report).find((line) => /^(PASS|FAIL): /.test(line)) ?? '';
      const page = timelineHtml('mcp-golden verify', summary, verifySections(report, goldens, io.cwd));
      await writeFileAtomic(pathIn(io, html), redactSecrets(page, secrets));
    }
    const sarif = args.string('sarif');
    if (sarif !== undefined) {
      const { rules, results } = verifySarif(report, io.cwd);
      await writeFileAtomic(pathIn(io, sarif), redactSecrets(sarifLog(SARIF_TOOL('verify'), rules, results), secrets));
    }
    return report.pass ? 0 : 1;
  },
});
