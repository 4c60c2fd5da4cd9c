import { GoldenError } from '../errors.js';
import type { ReportShard } from './verify-report.js';

/** A `--json` report given to `merge-reports`: the file as the user named it, and its parsed JSON. */
export interface NamedReport {
  readonly name: string;
  readonly data: unknown;
}

/** What every sharded `--json` report records (`verify` and `lint` alike). */
export interface ShardEnvelope {
  readonly format: string;
  readonly command: string;
  readonly shard: ReportShard;
  readonly goldens: readonly { readonly position: number }[];
}

/** The reports of one command, checked to be every shard of one split exactly once, in shard order. */
export interface ShardSet {
  readonly command: string;
  readonly reports: readonly { readonly name: string; readonly report: ShardEnvelope }[];
}

const fail = (message: string): never => {
  throw new GoldenError('E_USAGE', message);
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isCount = (value: unknown, min: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min;

/** One report's envelope, or a usage error naming the file and what it lacks. */
function envelopeOf({ name, data }: NamedReport, formats: Readonly<Record<string, string>>): ShardEnvelope {
  const commands = Object.keys(formats);
  const command = isRecord(data) ? data.command : undefined;
  if (!isRecord(data) || typeof command !== 'string' || !commands.includes(command)) {
    return fail(
      `Report "${name}" is not a --json report of ${commands.map((c) => `mcp-golden ${c}`).join(' or ')}: expected "command": ${commands.map((c) => JSON.stringify(c)).join(' or ')}, got ${isRecord(data) ? (JSON.stringify(command) ?? 'none') : 'no JSON object'}. Give the files that \`mcp-golden ${commands[0]} --shard i/n --json FILE\` wrote.`,
    );
  }
  const expected = formats[command];
  if (data.format !== expected) {
    return fail(
      `Report "${name}" has format ${JSON.stringify(data.format) ?? 'none'}: expected "${expected}", which this mcp-golden merges. Write every shard's report with the same mcp-golden version as merge-reports.`,
    );
  }
  const shard = data.shard;
  if (
    !isRecord(shard) ||
    !isCount(shard.count, 1) ||
    !isCount(shard.index, 1) ||
    shard.index > shard.count ||
    !isCount(shard.given, 0)
  ) {
    return fail(
      `Report "${name}" has no valid "shard": expected {"index": i, "count": n, "given": goldens} with 1 <= i <= n, got ${JSON.stringify(shard) ?? 'none'}. Write it again with \`mcp-golden ${command} --shard i/n --json FILE\`.`,
    );
  }
  const goldens = data.goldens;
  const listed = (g: unknown): boolean =>
    isRecord(g) && isCount(g.position, 1) && (typeof g.file === 'string' || typeof g.path === 'string');
  if (!Array.isArray(goldens) || !goldens.every(listed)) {
    return fail(
      `Report "${name}" does not list its goldens with their path and "position": expected "goldens": [{"file" or "path": ..., "position": n, ...}]. Write it again with \`mcp-golden ${command} --shard i/n --json FILE\`.`,
    );
  }
  return data as unknown as ShardEnvelope;
}

const shardName = (shard: ReportShard): string => `shard ${shard.index}/${shard.count}`;

/**
 * Checks that `reports` are every shard of one `--shard i/n` split of one command, each once, over
 * the same goldens, and returns them in shard order. Mixing commands, another format, a shard
 * missing or given twice: a usage error naming the file (and the missing shard).
 */
export function checkShardSet(reports: readonly NamedReport[], formats: Readonly<Record<string, string>>): ShardSet {
  if (reports.length === 0) fail('No reports to merge: name the --json reports of every shard.');
  const envelopes = reports.map((named) => ({ name: named.name, report: envelopeOf(named, formats) }));
  const [first, ...rest] = envelopes as [(typeof envelopes)[number], ...typeof envelopes];
  for (const { name, report } of rest) {
    if (report.command !== first.report.command) {
      fail(
        `Report "${name}" is a ${report.command} report, but "${first.name}" is a ${first.report.command} report: merge the reports of one command at a time.`,
      );
    }
    if (report.shard.count !== first.report.shard.count) {
      fail(
        `Report "${name}" is ${shardName(report.shard)}, but "${first.name}" is ${shardName(first.report.shard)}: every report must come from the same split (--shard i/${first.report.shard.count}).`,
      );
    }
    if (report.shard.given !== first.report.shard.given) {
      fail(
        `Report "${name}" was split from ${report.shard.given} goldens, but "${first.name}" from ${first.report.shard.given}: the shards ran over different goldens. Run every shard on the same commit with the same golden paths.`,
      );
    }
  }
  const byIndex = new Map<number, string>();
  for (const { name, report } of envelopes) {
    const twice = byIndex.get(report.shard.index);
    if (twice !== undefined) {
      fail(`Reports "${twice}" and "${name}" are both ${shardName(report.shard)}: give each shard's report once.`);
    }
    byIndex.set(report.shard.index, name);
  }
  const { count, given } = first.report.shard;
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !byIndex.has(index));
  if (missing.length > 0) {
    const names = missing.map((index) => `${index}/${count}`);
    fail(
      `Missing ${missing.length === 1 ? 'shard' : 'shards'} ${names.join(', ')}: the reports given are ${envelopes.map(({ name, report }) => `${shardName(report.shard)} ("${name}")`).join(', ')}. Add the report${missing.length === 1 ? '' : 's'} of ${missing.length === 1 ? 'shard' : 'shards'} ${names.join(', ')} (a runner that failed to upload it must run again).`,
    );
  }
  const seen = new Map<number, string>();
  for (const { name, report } of envelopes) {
    for (const { position } of report.goldens) {
      const other = seen.get(position);
      if (position > given || other !== undefined) {
        fail(
          `Report "${name}" lists the golden at position ${position}${other === undefined ? `, but the run was given ${given}` : `, as "${other}" does`}: the shards did not split the same goldens. Run every shard on the same commit with the same golden paths.`,
        );
      }
      seen.set(position, name);
    }
  }
  if (seen.size !== given) {
    fail(
      `The reports list ${seen.size} goldens, but the run was given ${given}: a shard's report is incomplete. Run the shards again and merge the reports they write.`,
    );
  }
  const ordered = [...envelopes].sort((a, b) => a.report.shard.index - b.report.shard.index);
  return { command: first.report.command, reports: ordered };
}
