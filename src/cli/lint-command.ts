import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { GoldenError, isGoldenError, suggest } from '../errors.js';
import type { LintedEntry } from '../lint/lint-json-report.js';
import { isLintRuleId, LINT_RULES, type LintRuleId } from '../lint/lint-rules.js';
import type { LintOptions } from '../lint/lint-transcript.js';
import type { Transcript } from '../transcript/frame.js';
import { pathIn, shownPath } from './cli-io.js';
import { defineCommand } from './command-spec.js';
import { CONFIG_FILE } from './config-file.js';

/** The project config's `lint` section: rule switches and timing tolerances. */
export async function projectOptions(cwd: string): Promise<LintOptions> {
  const { loadProjectConfig } = await import('./project-config.js');
  const lint = (await loadProjectConfig(cwd))?.config.lint;
  return (lint ?? {}) as LintOptions;
}

function parseOff(raw: string[] | undefined): Record<string, boolean> {
  const off: Record<string, boolean> = {};
  for (const id of (raw ?? [])
    .flatMap((r) => r.split(','))
    .map((r) => r.trim())
    .filter(Boolean)) {
    if (!isLintRuleId(id)) {
      const ids = LINT_RULES.map((r) => r.id);
      const near = suggest(id, ids);
      throw new GoldenError(
        'E_USAGE',
        `Unknown rule "${id}" in --off.${near ? ` Did you mean ${near}?` : ''} Expected one of: ${ids.join(', ')}.`,
      );
    }
    off[id] = false;
  }
  return off;
}

/** Reads a golden; one that is missing or unreadable is a usage error (exit 2), never a violation (exit 1). */
async function readLintable(path: string): Promise<Transcript> {
  const { readGolden } = await import('../store/golden-file.js');
  try {
    return await readGolden(path);
  } catch (error) {
    if (isGoldenError(error)) throw new GoldenError('E_USAGE', error.message);
    throw error;
  }
}

/** The golden files named: a directory is searched for `*.jsonl` (in name order), a file is read as given. */
async function lintOperands(operands: readonly string[], cwd: string): Promise<string[]> {
  const { findGoldens } = await import('../verify/find-goldens.js');
  const files: string[] = [];
  for (const operand of operands) {
    const path = resolve(cwd, operand);
    const isDirectory = await stat(path).then(
      (info) => info.isDirectory(),
      () => false,
    );
    files.push(...(isDirectory ? await findGoldens([operand], cwd) : [path]));
  }
  return [...new Set(files)];
}

/** `mcp-golden lint`: exit 0 clean, 1 with violations, 2 on usage errors. */
export const lintCommand = defineCommand({
  name: 'lint',
  summary: 'judge recorded servers against the progress contract',
  operands: '<golden.jsonl | dir>...',
  minOperands: 1,
  missing: 'golden path',
  description: `Judges recorded servers against the progress contract; a directory stands for every *.jsonl
under it. Exit 0 when every call follows it, 1 listing each violation, 2 on a usage error (including
a golden that is missing or unreadable).`,
  options: {
    json: { type: 'string', value: 'FILE', description: 'also write the report as JSON' },
    shard: {
      type: 'string',
      value: 'I/N',
      description:
        "lint only part I of N (1 <= I <= N), one part per CI runner; a golden's part is a stable hash of its path relative to the working directory. Join the parts' --json reports with `mcp-golden merge-reports`",
    },
    junit: { type: 'string', value: 'FILE', description: 'write a JUnit XML report: one test case per call' },
    sarif: { type: 'string', value: 'FILE', description: 'write a SARIF 2.1.0 log: each violation at its line' },
    'min-interval-ms': {
      type: 'string',
      value: 'N',
      integer: { min: 1, max: 3_600_000 },
      description: 'rate: shortest accepted average interval between notifications (default 100)',
    },
    'max-silence-ms': {
      type: 'string',
      value: 'N',
      integer: { min: 1, max: 3_600_000 },
      description: 'heartbeat: longest accepted silence while a call is open (default 7500)',
    },
    'keep-alive-ms': {
      type: 'string',
      value: 'N',
      integer: { min: 1, max: 3_600_000 },
      description: 'keep-alive (modern era): longest accepted silence on an open SSE response (default 20000)',
    },
    off: {
      type: 'string',
      value: 'RULE[,RULE]',
      multiple: true,
      description: `switch rules off for this run: ${LINT_RULES.map((r) => r.id).join(', ')}`,
    },
  },
  epilog: `Per project: { "lint": { "rules": { "rate": false }, "minIntervalMs": 100 } } in ./${CONFIG_FILE} (or under "mcp-golden" in ./package.json).
Per golden: notes.lint = { "<rule>": "why this golden is an exception" } in its header.`,
  async run(args, io) {
    // The implementation loads here, after parsing: `--help` and usage errors load none of it.
    const {
      buildLintJsonReport,
      lintSummaryLine,
      lintTranscript,
      formatLintedGolden,
      emptyShardLine,
      parseShard,
      pickShard,
      shardLine,
      WHOLE_RUN,
      writeLintOutputs,
    } = await import('./lint-implementation.js');
    const positionals = await lintOperands(args.operands, io.cwd);
    const project = await projectOptions(io.cwd);
    const minIntervalMs = args.integer('min-interval-ms');
    const maxSilenceMs = args.integer('max-silence-ms');
    const keepAliveMs = args.integer('keep-alive-ms');
    const options: LintOptions = {
      ...project,
      rules: { ...project.rules, ...(parseOff(args.strings('off')) as Partial<Record<LintRuleId, boolean>>) },
      ...(minIntervalMs !== undefined && { minIntervalMs }),
      ...(maxSilenceMs !== undefined && { maxSilenceMs }),
      ...(keepAliveMs !== undefined && { keepAliveMs }),
    };
    const shardOption = args.string('shard');
    const shard = shardOption === undefined ? WHOLE_RUN : parseShard(shardOption);
    const pick = pickShard(positionals, shard, io.cwd);
    if (pick.files.length === 0) io.stdout.write(`${emptyShardLine('lint', shard, pick.given)}\n`);
    else if (shard.count > 1) io.stdout.write(`${shardLine('lint', shard, pick)}\n`);
    const transcripts = new Map<string, Transcript>();
    const entries: LintedEntry[] = [];
    for (const [i, file] of pick.files.entries()) {
      const transcript = await readLintable(file);
      const path = shownPath(io, file);
      transcripts.set(path, transcript);
      entries.push({ path, position: pick.positions[i] ?? i + 1, ...lintTranscript(transcript, options) });
    }
    const report = buildLintJsonReport(entries, { ...shard, given: pick.given });
    for (const golden of report.goldens) {
      for (const line of formatLintedGolden(golden)) io.stdout.write(`${line}\n`);
    }
    if (pick.files.length > 0) io.stdout.write(`${lintSummaryLine(report)}\n`);
    const files = { json: args.string('json'), junit: args.string('junit'), sarif: args.string('sarif') };
    await writeLintOutputs(report, files, io, async (path) => transcripts.get(path) ?? readLintable(pathIn(io, path)));
    return report.violations === 0 ? 0 : 1;
  },
});
