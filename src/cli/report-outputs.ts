import type { LintJsonReport } from '../lint/lint-json-report.js';
import { timelineHtml } from '../report/html-report.js';
import { junitXml } from '../report/junit.js';
import { sarifLog } from '../report/sarif.js';
import { readGolden, writeFileAtomic } from '../store/golden-file.js';
import type { Transcript } from '../transcript/frame.js';
import { formatReportTail, type VerifyReport } from '../verify/verify-report.js';
import { type LintedGolden, lintJunit, lintSarif, SARIF_TOOL, verifyJunit, verifySarif } from './ci-reports.js';
import { type CliIo, pathIn } from './cli-io.js';
import { verifySections } from './html-reports.js';
import type { ReportFiles } from './report-options.js';

/** A golden's transcript, read from the path a report gives; a golden that cannot be read is drawn without it. */
const readOrSkip = (file: string): Promise<Transcript | undefined> => readGolden(file).catch(() => undefined);

/**
 * Writes a `verify` report's files; `redact` keeps the target's secrets out of each. The HTML page
 * draws each golden from `transcriptOf` (given the golden's path as the report has it).
 */
export async function writeVerifyOutputs(
  report: VerifyReport,
  files: ReportFiles,
  io: Pick<CliIo, 'cwd'>,
  redact: (text: string) => string = (text) => text,
  transcriptOf: (file: string) => Promise<Transcript | undefined> = readOrSkip,
): Promise<void> {
  if (files.json !== undefined) {
    await writeFileAtomic(pathIn(io, files.json), `${redact(JSON.stringify(report, null, 2))}\n`);
  }
  if (files.junit !== undefined) {
    await writeFileAtomic(pathIn(io, files.junit), redact(junitXml(verifyJunit(report, io.cwd))));
  }
  if (files.html !== undefined) {
    const goldens = new Map<string, Transcript>();
    for (const { file } of report.goldens) {
      const golden = await transcriptOf(file);
      if (golden) goldens.set(file, golden);
    }
    const summary = formatReportTail(report).find((line) => /^(PASS|FAIL): /.test(line)) ?? '';
    const page = timelineHtml('mcp-golden verify', summary, verifySections(report, goldens, io.cwd));
    await writeFileAtomic(pathIn(io, files.html), redact(page));
  }
  if (files.sarif !== undefined) {
    const { rules, results } = verifySarif(report, io.cwd);
    await writeFileAtomic(pathIn(io, files.sarif), redact(sarifLog(SARIF_TOOL('verify'), rules, results)));
  }
}

/**
 * Writes a `lint` report's files. The JUnit report lists each golden's calls, so it reads each
 * golden's transcript through `transcriptOf` (given its path as the report shows it).
 */
export async function writeLintOutputs(
  report: LintJsonReport,
  files: Omit<ReportFiles, 'html'>,
  io: Pick<CliIo, 'cwd'>,
  transcriptOf: (path: string) => Promise<Transcript>,
): Promise<void> {
  if (files.json !== undefined) await writeFileAtomic(pathIn(io, files.json), `${JSON.stringify(report, null, 2)}\n`);
  const goldens = report.goldens.map(({ path, position: _, ...lint }) => ({
    path: pathIn(io, path),
    shown: path,
    report: lint,
  }));
  if (files.junit !== undefined) {
    const linted: LintedGolden[] = [];
    for (const { path, shown, report: lint } of goldens) {
      linted.push({ path, transcript: await transcriptOf(shown), report: lint });
    }
    await writeFileAtomic(pathIn(io, files.junit), junitXml(lintJunit(linted, io.cwd)));
  }
  if (files.sarif !== undefined) {
    const { rules, results } = lintSarif(goldens, io.cwd);
    await writeFileAtomic(pathIn(io, files.sarif), sarifLog(SARIF_TOOL('lint'), rules, results));
  }
}
