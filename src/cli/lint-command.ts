import { stat, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { GoldenError, isGoldenError } from '../errors.js';
import { isLintRuleId, LINT_RULES, type LintRuleId } from '../lint/lint-rules.js';
import type { LintOptions } from '../lint/lint-transcript.js';
import type { Transcript } from '../transcript/frame.js';
import type { LintedGolden } from './ci-reports.js';
import { pathIn, shownPath } from './cli-io.js';
import { defineCommand, suggest } from './command-spec.js';
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
    const [{ lintTranscript }, { formatViolation }, { junitXml }, { sarifLog }, { writeFileAtomic }, reports] =
      await Promise.all([
        import('../lint/lint-transcript.js'),
        import('../lint/lint-violation.js'),
        import('../report/junit.js'),
        import('../report/sarif.js'),
        import('../store/golden-file.js'),
        import('./ci-reports.js'),
      ]);
    const { lintJunit, lintSarif, SARIF_TOOL } = reports;
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
    const results: LintedGolden[] = [];
    for (const path of positionals) {
      const transcript = await readLintable(path);
      results.push({ path, transcript, report: lintTranscript(transcript, options) });
    }
    let total = 0;
    for (const { path: file, report } of results) {
      const path = shownPath(io, file);
      total += report.violations.length;
      const verdict =
        report.violations.length === 0
          ? 'ok'
          : `${report.violations.length} violation${report.violations.length === 1 ? '' : 's'}`;
      io.stdout.write(`${path}: ${verdict} (${report.calls} request${report.calls === 1 ? '' : 's'})\n`);
      for (const v of report.violations) io.stdout.write(`${formatViolation(v, path)}\n`);
      for (const s of report.skipped) io.stdout.write(`  ${s.rule} off: ${s.why}\n`);
    }
    io.stdout.write(
      total === 0
        ? `[mcp-golden] lint: ${results.length === 1 ? '1 golden follows' : `${results.length} goldens follow`} the progress contract\n`
        : `[mcp-golden] lint: ${total} violation${total === 1 ? '' : 's'} in ${results.filter((r) => r.report.violations.length > 0).length} of ${results.length} goldens\n`,
    );
    const jsonFile = args.string('json');
    if (jsonFile !== undefined) {
      const json = {
        goldens: results.map(({ path, report }) => ({ path: shownPath(io, path), ...report })),
        violations: total,
      };
      await writeFile(pathIn(io, jsonFile), `${JSON.stringify(json, null, 2)}\n`);
    }
    const junit = args.string('junit');
    if (junit !== undefined) await writeFileAtomic(pathIn(io, junit), junitXml(lintJunit(results, io.cwd)));
    const sarif = args.string('sarif');
    if (sarif !== undefined) {
      const { rules, results: found } = lintSarif(results, io.cwd);
      await writeFileAtomic(pathIn(io, sarif), sarifLog(SARIF_TOOL('lint'), rules, found));
    }
    return total === 0 ? 0 : 1;
  },
});
