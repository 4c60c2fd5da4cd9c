import type { Verdict } from './verdict.js';
import { escapeXml } from './xml-text.js';

/** What a mark on a lane stands for. */
export type MarkKind = 'request' | 'progress' | 'result' | 'error' | 'cancel' | 'other';

/** One moment on a lane: when (ms on the row's clock), what, and a tooltip. */
export interface TimelineMark {
  readonly ms: number;
  readonly kind: MarkKind;
  readonly title: string;
}

/** One lane of a row: who saw or sent the marks (`client`, `upstream`). */
export interface TimelineLane {
  readonly name: string;
  readonly marks: readonly TimelineMark[];
}

/** One row of the page: a call (or a check row, or a golden) with its verdict, evidence and lanes. */
export interface TimelineRow {
  readonly name: string;
  readonly verdict: Verdict;
  /** Why, in words and numbers, shown beside the row. */
  readonly evidence: string;
  readonly lanes: readonly TimelineLane[];
  /** Lines of a diff (`- expected`, `+ actual`), shown under the row. */
  readonly diff?: readonly string[];
}

/** A titled group of rows (one golden, one gateway). */
export interface TimelineSection {
  readonly title: string;
  readonly rows: readonly TimelineRow[];
}

const WIDTH = 640;
const LANE = 18;
const COLORS: Record<MarkKind, string> = {
  request: '#555',
  progress: '#1f77b4',
  result: '#2ca02c',
  error: '#d62728',
  cancel: '#9467bd',
  other: '#999',
};

/** A round step for a time axis: 1, 2 or 5 times a power of ten, about `span / 6` (six ticks or so). */
export function tickStep(span: number): number {
  const raw = Math.max(span, 1) / 6;
  const power = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw) || 1;
}

/** The shared axis: ticks every round step from 0 to `span` ms, labelled. */
function axisSvg(span: number): string {
  const step = tickStep(span);
  const ticks: string[] = [];
  for (let ms = 0; ms <= span + 1e-9; ms += step) {
    const x = (ms / span) * WIDTH;
    ticks.push(
      `<line x1="${x.toFixed(1)}" y1="14" x2="${x.toFixed(1)}" y2="20" stroke="#333"/><text x="${x.toFixed(1)}" y="11" text-anchor="middle">${Number(ms.toPrecision(6))}</text>`,
    );
  }
  return `<svg class="axis" width="${WIDTH + 40}" height="22" viewBox="-20 0 ${WIDTH + 40} 22" role="img" aria-label="time axis in ms"><line x1="0" y1="20" x2="${WIDTH}" y2="20" stroke="#333"/>${ticks.join('')}</svg>`;
}

function laneSvg(row: TimelineRow, span: number): string {
  const height = Math.max(1, row.lanes.length) * LANE + 4;
  const parts = [
    `<svg class="lanes" width="${WIDTH + 40}" height="${height}" viewBox="-20 0 ${WIDTH + 40} ${height}">`,
  ];
  row.lanes.forEach((lane, i) => {
    const y = i * LANE + LANE / 2 + 2;
    parts.push(
      `<line x1="0" y1="${y}" x2="${WIDTH}" y2="${y}" stroke="#ddd"/>`,
      ...lane.marks.map((m) => {
        const x = (Math.min(Math.max(m.ms, 0), span) / span) * WIDTH;
        const shape =
          m.kind === 'result' || m.kind === 'error'
            ? `<rect x="${(x - 4).toFixed(1)}" y="${y - 4}" width="8" height="8" fill="${COLORS[m.kind]}">`
            : `<circle cx="${x.toFixed(1)}" cy="${y}" r="3.5" fill="${COLORS[m.kind]}">`;
        const end = m.kind === 'result' || m.kind === 'error' ? '</rect>' : '</circle>';
        return `${shape}<title>${escapeXml(`${lane.name} ${m.title} at ${m.ms.toFixed(1)} ms`)}</title>${end}`;
      }),
    );
  });
  parts.push('</svg>');
  return parts.join('');
}

const MARK: Record<Verdict, string> = {
  pass: '✓ pass',
  warn: '! warn',
  fail: '✗ FAIL',
  'n/a': '– n/a',
  inconclusive: '? inconclusive',
};

function rowHtml(row: TimelineRow, span: number): string {
  const lanes = row.lanes.map((l) => `<div>${escapeXml(l.name)}</div>`).join('');
  const diff =
    row.diff && row.diff.length > 0
      ? `<pre class="diff">${row.diff
          .map(
            (line) =>
              `<span class="${line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : 'ctx'}">${escapeXml(line)}</span>`,
          )
          .join('\n')}</pre>`
      : '';
  return `<tr class="row ${row.verdict === 'fail' ? 'fail' : row.verdict === 'pass' ? 'pass' : 'na'}">
<td class="name">${escapeXml(row.name)}</td>
<td class="verdict">${MARK[row.verdict]}</td>
<td class="lane-names">${lanes}</td>
<td class="plot">${laneSvg(row, span)}</td>
<td class="evidence">${escapeXml(row.evidence)}${diff}</td>
</tr>`;
}

const STYLE = `body{font:13px/1.4 system-ui,sans-serif;margin:16px;color:#222}
h1{font-size:18px}h2{font-size:15px;margin-top:24px}
table{border-collapse:collapse}td{border-top:1px solid #eee;vertical-align:top;padding:4px 6px}
td.name{max-width:260px;font-weight:600;word-break:break-word}
td.verdict{white-space:nowrap;font-weight:600}tr.pass td.verdict{color:#2ca02c}tr.fail td.verdict{color:#d62728}tr.na td.verdict{color:#888}
td.lane-names div{height:${LANE}px;line-height:${LANE}px;color:#666;font-size:11px}
td.evidence{max-width:420px;font-size:12px;word-break:break-word}
svg{font:10px monospace;display:block}
pre.diff{font-size:11px;background:#fafafa;padding:4px;white-space:pre-wrap}
.add{color:#1a7f37}.del{color:#cf222e}.ctx{color:#666}
.legend span{margin-right:12px}`;

/**
 * One self-contained HTML page (inline CSS and SVG, no script, no network, no external asset):
 * every row's lanes drawn on one shared time axis in ms, with its pass/fail mark and evidence
 * beside it, and a diff under it where there is one.
 *
 * @example
 * await writeFile('check.html', timelineHtml('mcp-golden check', '4 passed', [{ title: 'gateway', rows }]))
 */
export function timelineHtml(title: string, summary: string, sections: readonly TimelineSection[]): string {
  const all = sections.flatMap((s) => s.rows.flatMap((r) => r.lanes.flatMap((l) => l.marks.map((m) => m.ms))));
  const span = Math.max(1, ...all);
  const legend = (Object.keys(COLORS) as MarkKind[])
    .map(
      (k) =>
        `<span><svg width="10" height="10" style="display:inline"><circle cx="5" cy="5" r="4" fill="${COLORS[k]}"/></svg> ${k}</span>`,
    )
    .join('');
  const body = sections
    .map(
      (s) => `<section><h2>${escapeXml(s.title)}</h2>
<table><thead><tr><th>row</th><th>verdict</th><th>lane</th><th>${axisSvg(span)}</th><th>evidence</th></tr></thead>
<tbody>${s.rows.map((r) => rowHtml(r, span)).join('\n')}</tbody></table></section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeXml(title)}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>${STYLE}</style></head>
<body><h1>${escapeXml(title)}</h1><p class="summary">${escapeXml(summary)}</p>
<p class="legend">time axis: ms from each call's first event, the same scale for every row. ${legend}</p>
${body}
</body></html>
`;
}
