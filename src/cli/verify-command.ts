import { GoldenError } from '../errors.js';
import { NAMED_MASKS } from '../transcript/named-masks.js';
import { defineCommand } from './command-spec.js';
import { REPORT_OPTIONS, reportFilesOf } from './report-options.js';
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
    ...REPORT_OPTIONS,
    shard: {
      type: 'string',
      value: 'I/N',
      description:
        "verify only part I of N (1 <= I <= N), one part per CI runner; a golden's part is a stable hash of its path relative to the working directory. Join the parts' --json reports with `mcp-golden merge-reports`",
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
      compileVolatile,
      mergeVolatile,
      findGoldens,
      emptyShardLine,
      parseShard,
      pickShard,
      shardLine,
      WHOLE_RUN,
      redactSecrets,
      targetSecrets,
      verifyGoldens,
      buildVerifyReport,
      formatReportTail,
      formatVerdictLine,
      loadProjectConfig,
      writeVerifyOutputs,
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
    const shardOption = args.string('shard');
    const shard = shardOption === undefined ? WHOLE_RUN : parseShard(shardOption);
    const found = await findGoldens(args.operands, io.cwd);
    const pick = pickShard(found, shard, io.cwd);
    const secrets = targetSecrets(target);
    const say = (text: string): void => {
      io.stdout.write(`${redactSecrets(text, secrets)}\n`);
    };
    if (pick.files.length === 0) say(emptyShardLine('verify', shard, pick.given));
    else if (shard.count > 1) say(shardLine('verify', shard, pick));
    const started = performance.now();
    const update = args.boolean('update');
    const verdicts =
      pick.files.length === 0
        ? []
        : await verifyGoldens(pick.files, {
            target,
            volatile: mergeVolatile(config.volatile, flags),
            volatileFor: config.volatileFor,
            failOn,
            update,
            ...(concurrency !== undefined && { concurrency }),
            redactText: (text) => redactSecrets(text, secrets),
            onVerdict: (verdict) => say(formatVerdictLine(verdict, io.cwd)),
          });
    const report = buildVerifyReport(verdicts, {
      failOn,
      update,
      ms: performance.now() - started,
      cwd: io.cwd,
      shard: { ...shard, given: pick.given },
      positions: pick.positions,
    });
    for (const line of formatReportTail(report)) say(line);
    await writeVerifyOutputs(report, reportFilesOf(args), io, (text) => redactSecrets(text, secrets));
    return report.pass ? 0 : 1;
  },
});
