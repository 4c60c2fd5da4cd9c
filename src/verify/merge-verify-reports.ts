import { relative, resolve } from 'node:path';
import { GoldenError } from '../errors.js';
import type { ReportedSchemaChange, VerifyReport } from './verify-report.js';

const schemaKey = (c: ReportedSchemaChange): string => JSON.stringify([c.list, c.item, c.argument, c.change, c.class]);

/**
 * Joins the reports of every shard of one `verify --shard i/n` run (checked by `checkShardSet`, in
 * shard order) into the report one unsharded run in `cwd` would have written: the goldens in the
 * order given, each tool-schema change once with every golden that saw it, the totals; the time is
 * the shards' times added. Goldens' paths are read relative to each report's working directory
 * and written relative to `cwd`, as a CI job has them after checkout.
 */
export function mergeVerifyReports(
  reports: readonly { readonly name: string; readonly report: VerifyReport }[],
  cwd: string,
): VerifyReport {
  const [first] = reports;
  if (!first) throw new GoldenError('E_USAGE', 'No verify reports to merge: name the --json report of every shard.');
  for (const { name, report } of reports) {
    for (const setting of ['failOn', 'update'] as const) {
      if (report[setting] !== first.report[setting]) {
        throw new GoldenError(
          'E_USAGE',
          `Report "${name}" was verified with ${setting} ${JSON.stringify(report[setting])}, but "${first.name}" with ${JSON.stringify(first.report[setting])}: run every shard with the same options.`,
        );
      }
    }
  }
  const moved = (report: VerifyReport) => (file: string) => resolve(cwd, relative(report.cwd, file));
  const goldens = reports
    .flatMap(({ report }) => report.goldens.map((g) => ({ ...g, file: moved(report)(g.file) })))
    .sort((a, b) => a.position - b.position);
  const positionOf = new Map(goldens.map((g) => [g.file, g.position]));
  const place = (file: string): number => positionOf.get(file) ?? Number.POSITIVE_INFINITY;
  // An unsharded run lists a change where the first golden that saw it does, in that golden's order.
  const changes = new Map<string, { change: ReportedSchemaChange; files: string[]; first: number; order: number }>();
  for (const { report } of reports) {
    report.schemaChanges.forEach((change, order) => {
      const files = change.goldens.map(moved(report));
      const first = Math.min(...files.map(place));
      const known = changes.get(schemaKey(change));
      if (!known) {
        changes.set(schemaKey(change), { change, files, first, order });
        return;
      }
      known.files.push(...files);
      if (first < known.first) Object.assign(known, { first, order });
    });
  }
  const schemaChanges = [...changes.values()]
    .sort((a, b) => a.first - b.first || a.order - b.order)
    .map(({ change, files }) => ({ ...change, goldens: files.sort((a, b) => place(a) - place(b)) }));
  const passed = goldens.filter((g) => g.pass).length;
  return {
    format: first.report.format,
    command: 'verify',
    shard: { index: 1, count: 1, given: first.report.shard.given },
    cwd,
    pass: passed === goldens.length,
    failOn: first.report.failOn,
    update: first.report.update,
    summary: {
      goldens: goldens.length,
      passed,
      failed: goldens.length - passed,
      rewritten: goldens.filter((g) => g.rewritten).length,
      ms: reports.reduce((sum, { report }) => sum + report.summary.ms, 0),
    },
    goldens,
    schemaChanges,
  };
}
