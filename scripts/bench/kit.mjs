// The bench's measuring kit: interleaved runs, medians with their spread, and the rows the table and
// `--json` print. Every figure is the median of several runs; when a peer is measured, its runs are
// interleaved with ours (A B A B ...), so drift in machine load falls on both sides alike.

/** The q-quantile (0..1) of a list of numbers, nearest-rank. */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** The median of a list of numbers. */
export const median = (values) => quantile(values, 0.5);

/** Formats a figure with a precision that suits its size. */
export const fmt = (n, unit) => `${n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : n.toFixed(0)} ${unit}`;

/**
 * Runs each variant `runs` times, interleaved and rotating which goes first, and returns each
 * variant's samples. A variant returns the figure it measured (a number), or nothing to have its
 * wall time in milliseconds taken. `warmup` unmeasured rounds run first.
 */
export async function interleaved(variants, { runs = 5, warmup = 1 } = {}) {
  const names = Object.keys(variants);
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < warmup + runs; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const name of order) {
      const started = performance.now();
      const measured = await variants[name]();
      const value = typeof measured === 'number' ? measured : performance.now() - started;
      if (round >= warmup) samples[name].push(value);
    }
  }
  return samples;
}

/** The rows of one bench run, for the table and for `--json`. */
export class BenchRows {
  rows = [];

  /**
   * Adds a figure. `samples` is one number or the list of runs (the median is the value);
   * `target` is `{ op: '<' | '<=', value, extra? }`; `peer` is `{ name, samples }` measured in the
   * same run, and the ratio is ours over the peer's median (otherwise over the target).
   */
  add({ figure, samples, unit, target, peer, note = '' }) {
    const runs = Array.isArray(samples) ? samples : [samples];
    const value = median(runs);
    const peerRuns = peer ? (Array.isArray(peer.samples) ? peer.samples : [peer.samples]) : undefined;
    const peerValue = peerRuns ? median(peerRuns) : undefined;
    const ratio = peerValue !== undefined ? value / peerValue : value / target.value;
    const met = target.op === '<=' ? value <= target.value : value < target.value;
    this.rows.push({
      text: {
        figure,
        value: `${fmt(value, unit)}`,
        spread:
          runs.length > 1 ? `${fmt(Math.min(...runs), '')}-${fmt(Math.max(...runs), '')}`.replaceAll(' ', '') : '',
        target: `${target.op} ${fmt(target.value, unit)}${target.extra ?? ''}`,
        ratio: `${ratio.toFixed(2)}x ${peerValue !== undefined ? peer.name : 'target'}`,
        met: met ? 'yes' : 'NO',
        note: [peerValue !== undefined ? `${peer.name} ${fmt(peerValue, unit)}` : '', note].filter(Boolean).join('; '),
      },
      data: {
        figure,
        value,
        unit,
        runs: runs.length,
        spread: { min: Math.min(...runs), max: Math.max(...runs) },
        target: target.value,
        targetOp: target.op,
        met,
        ...(peerValue !== undefined && {
          peer: peer.name,
          peerValue,
          peerSpread: { min: Math.min(...peerRuns), max: Math.max(...peerRuns) },
          ratio,
        }),
        note,
      },
    });
  }

  /** The table as text. */
  table() {
    const keys = ['figure', 'value', 'spread', 'target', 'ratio', 'met'];
    const header = {
      figure: 'figure',
      value: 'median',
      spread: 'min-max',
      target: 'target',
      ratio: 'ratio',
      met: 'met',
      note: 'notes',
    };
    const texts = this.rows.map((r) => r.text);
    const widths = keys.map((k) => Math.max(header[k].length, ...texts.map((t) => t[k].length)));
    const line = (t) => keys.map((k, i) => t[k].padEnd(widths[i])).join(' | ') + (t.note ? ` | ${t.note}` : '');
    return [line(header), widths.map((w) => '-'.repeat(w)).join('-+-'), ...texts.map(line)].join('\n');
  }
}
