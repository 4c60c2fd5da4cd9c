import { tickStep } from '../report/html-report.js';
import { counted } from '../transcript/counted.js';
import { wrap } from '../wrap.js';
import { type CheckReport, NEEDS_ACCEL_HEADER, type TimelineCall, type Verdict } from './vocabulary.js';

const MARK: Record<Verdict, string> = { pass: 'pass', warn: 'warn', fail: 'FAIL', 'n/a': 'n/a ', inconclusive: 'inc.' };

/** The last line's verdict: faithful, faithful only with the header, or broken; never more than the rows judged show. */
function summary(report: CheckReport): string {
  if (report.noBridge) {
    const required = report.pass ? ': not a streaming failure (--require-bridge makes it one)' : ' (--require-bridge)';
    return `the gateway does not bridge eras (client ${report.noBridge.from} → upstream ${report.noBridge.to})${required}`;
  }
  const unjudged = report.results.filter((r) => r.verdict === 'inconclusive').length;
  const judged =
    unjudged > 0 ? ` in the rows judged (${unjudged} inconclusive: not a failure, not shown faithful)` : '';
  if (report.pass && report.only) {
    const asked = report.only.map((text) => JSON.stringify(text)).join(', ');
    return `the gateway forwards the rows run (--only ${asked}) faithfully${judged}; the rest of the battery was not run`;
  }
  if (report.pass) return `the gateway forwards MCP streaming faithfully${judged}`;
  const failed = report.results.filter((r) => r.verdict === 'fail');
  if (failed.every((r) => r.numbers[NEEDS_ACCEL_HEADER] === true)) {
    return 'the gateway forwards MCP streaming faithfully only when the upstream sends X-Accel-Buffering: no';
  }
  return 'the gateway breaks MCP streaming';
}

/** The verdict table: one row per property, then the totals. */
export function formatReport(report: CheckReport, width = 110): string {
  const nameWidth = Math.max(8, ...report.results.map((r) => r.property.length));
  const evidenceWidth = Math.max(30, width - nameWidth - 10);
  const rule = `${'-'.repeat(nameWidth + 2)}+------+${'-'.repeat(evidenceWidth + 2)}`;
  const lines = [
    `mcp-golden check: ${report.gateway}`,
    `upstream ${report.upstreamTransport}, client ${report.clientTransport}${report.eras ? `, client era ${report.eras.client}, upstream era ${report.eras.upstream}` : ''}, ${(report.durationMs / 1000).toFixed(1)} s`,
    ...(report.noBridge ? ['', ...wrap(`finding: the gateway ${report.noBridge.evidence}`, width)] : []),
    '',
    ` ${'property'.padEnd(nameWidth)} | res  | evidence`,
    rule,
  ];
  for (const r of report.results) {
    const [first, ...rest] = wrap(r.evidence, evidenceWidth);
    lines.push(` ${r.property.padEnd(nameWidth)} | ${MARK[r.verdict]} | ${first}`);
    for (const more of rest) lines.push(` ${''.padEnd(nameWidth)} |      | ${more}`);
  }
  lines.push(rule);
  if (report.starts) lines.push(startsLine(report.starts));
  lines.push(`${counts(report)}: ${summary(report)}`);
  return lines.join('\n');
}

/** `client legacy → upstream modern`: the era combination a report ran in. */
export function erasOf(report: Pick<CheckReport, 'eras'>): string {
  const eras = report.eras ?? { client: 'legacy', upstream: 'legacy' };
  return `client ${eras.client} → upstream ${eras.upstream}`;
}

/**
 * The last line after several tables (`--eras all`): how many tables passed, which failed, and the
 * verdict the exit code gives (1 when any table failed), so that it never says faithful when one failed.
 */
export function overallLine(reports: readonly CheckReport[]): string {
  const failed = reports.filter((r) => !r.pass);
  const inconclusive = reports.reduce((n, r) => n + r.results.filter((x) => x.verdict === 'inconclusive').length, 0);
  const unjudged = inconclusive > 0 ? ` (${inconclusive} rows inconclusive: not a failure, not shown faithful)` : '';
  const bridgeless = reports.filter((r) => r.noBridge && r.pass).map(erasOf);
  const unbridged =
    bridgeless.length > 0 ? ` (${bridgeless.length} of them do not bridge eras: ${bridgeless.join('; ')})` : '';
  const head = `overall, ${reports.length} tables: ${reports.length - failed.length} passed${unbridged}, ${failed.length} failed`;
  if (failed.length === 0) return `${head}: the gateway forwards MCP streaming faithfully in every table${unjudged}`;
  return `${head} (${failed.map(erasOf).join('; ')}): the gateway breaks MCP streaming${unjudged}`;
}

/** How many rows got each verdict: `27 passed, 1 failed, 4 not applicable` (and inconclusive, when any). */
export function counts(report: Pick<CheckReport, 'results'>): string {
  const count = (v: Verdict): number => report.results.filter((r) => r.verdict === v).length;
  const inconclusive = count('inconclusive');
  return `${count('pass')} passed, ${count('fail')} failed, ${count('n/a')} not applicable${inconclusive > 0 ? `, ${inconclusive} inconclusive` : ''}`;
}

/** The line on gateway starts: how many processes the check started and how long they took to answer a first request. */
function startsLine(starts: NonNullable<CheckReport['starts']>): string {
  // Under a second in ms: a start of 40 ms is not "0.0 s".
  const s = (ms: number): string => (Math.round(ms) < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);
  const late = starts.late > 0 ? `; ${starts.late} did not answer within --timeout (their rows are inconclusive)` : '';
  return `gateway starts: ${counted(starts.count, 'process', 'processes')} answered a first request after ${s(starts.medianMs)} (median), ${s(starts.longestMs)} at the longest${late}; the rows' clocks start after that`;
}

const escapeXml = (text: string): string => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

const VERDICT_MARK = {
  pass: { text: '✓ pass', color: '#2ca02c' },
  warn: { text: '! warn', color: '#ff7f0e' },
  fail: { text: '✗ FAIL', color: '#d62728' },
  'n/a': { text: '– n/a', color: '#888888' },
  inconclusive: { text: '? inconclusive', color: '#b8860b' },
} as const;

/**
 * An SVG timeline: one lane per call, upstream send times on the upper line and client arrival
 * times on the lower line, each notification joined to its arrival, so buffering shows as lines
 * fanning into one point. Every call is drawn on one time axis in ms (from the call's first
 * event), under its row's full title and pass/fail mark.
 */
export function timelineSvg(report: CheckReport): string {
  const calls = report.results.flatMap((r) =>
    r.calls.map((c) => ({ ...c, property: r.property, verdict: r.verdict, title: wrap(r.property, 38) })),
  );
  const startOf = (call: TimelineCall): number =>
    Math.min(
      ...call.upstreamSentMs,
      ...call.clientReceivedMs,
      ...(call.clientResultMs !== undefined ? [call.clientResultMs] : []),
    );
  const spanOf = (call: TimelineCall): number => {
    const all = [
      ...call.upstreamSentMs,
      ...call.clientReceivedMs,
      ...(call.clientResultMs !== undefined ? [call.clientResultMs] : []),
    ];
    return all.length === 0 ? 0 : Math.max(...all) - Math.min(...all);
  };
  const span = Math.max(1, ...calls.map(spanOf));
  const left = 320;
  const plot = 900;
  const top0 = 70;
  const laneHeight = (call: (typeof calls)[number]): number => Math.max(56, 18 + 13 * (call.title.length + 1));
  const height = top0 + calls.reduce((h, c) => h + laneHeight(c), 0) + 10;
  const x = (ms: number): number => left + (ms / span) * plot;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${left + plot + 40}" height="${height}" font-family="monospace" font-size="11">`,
    `<text x="10" y="16" font-size="13">mcp-golden check: ${escapeXml(report.gateway)}</text>`,
    `<text x="10" y="31" fill="#444">blue: upstream sent a progress notification; orange: the client received it; black square: the result arrived</text>`,
    `<line x1="${left}" y1="${top0 - 8}" x2="${left + plot}" y2="${top0 - 8}" stroke="#333"/>`,
    `<text x="${left + plot + 6}" y="${top0 - 5}">ms</text>`,
  ];
  const step = tickStep(span);
  for (let ms = 0; ms <= span + 1e-9; ms += step) {
    parts.push(
      `<line x1="${x(ms).toFixed(1)}" y1="${top0 - 12}" x2="${x(ms).toFixed(1)}" y2="${top0 - 8}" stroke="#333"/>`,
      `<text x="${x(ms).toFixed(1)}" y="${top0 - 15}" text-anchor="middle">${Number(ms.toPrecision(6))}</text>`,
    );
  }
  let top = top0;
  for (const call of calls) {
    const t0 = startOf(call);
    const at = (t: number): string => x(t - t0).toFixed(1);
    const mark = VERDICT_MARK[call.verdict];
    parts.push(
      `<text x="10" y="${top + 14}" fill="${mark.color}" font-weight="bold">${mark.text}</text>`,
      ...call.title.map((line, i) => `<text x="70" y="${top + 14 + 13 * i}">${escapeXml(line)}</text>`),
      `<text x="70" y="${top + 14 + 13 * call.title.length}" fill="#666">${escapeXml(call.label)} (${spanOf(call).toFixed(0)} ms)</text>`,
      `<line x1="${left}" y1="${top + 8}" x2="${left + plot}" y2="${top + 8}" stroke="#ddd"/>`,
      `<line x1="${left}" y1="${top + 32}" x2="${left + plot}" y2="${top + 32}" stroke="#ddd"/>`,
    );
    call.clientReceivedMs.forEach((t, n) => {
      const sent = call.upstreamSentMs[n];
      if (sent !== undefined)
        parts.push(`<line x1="${at(sent)}" y1="${top + 8}" x2="${at(t)}" y2="${top + 32}" stroke="#bbb"/>`);
    });
    for (const t of call.upstreamSentMs) parts.push(`<circle cx="${at(t)}" cy="${top + 8}" r="3" fill="#1f77b4"/>`);
    for (const t of call.clientReceivedMs) parts.push(`<circle cx="${at(t)}" cy="${top + 32}" r="3" fill="#ff7f0e"/>`);
    if (call.clientResultMs !== undefined) {
      parts.push(
        `<rect x="${(Number(at(call.clientResultMs)) - 3).toFixed(1)}" y="${top + 29}" width="6" height="6" fill="#000"/>`,
      );
    }
    top += laneHeight(call);
  }
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
