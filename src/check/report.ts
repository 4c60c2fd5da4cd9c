import type { TimelineCall } from './battery.js';
import type { CheckReport } from './run-check.js';

/** The number a spacing row carries when it passed only with `X-Accel-Buffering: no` from the upstream. */
export const NEEDS_ACCEL_HEADER = 'onlyWithAccelHeader';

const MARK = { pass: 'pass', fail: 'FAIL', 'n/a': 'n/a ' } as const;

/** Splits `text` into lines of at most `width` characters, at spaces (a longer word keeps its own line). */
export function wrap(text: string, width: number): string[] {
  const words = text.split(' ');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines.length > 0 ? lines : [''];
}

/** The last line's verdict: faithful, faithful only with the header, or broken. */
function summary(report: CheckReport): string {
  if (report.pass) return 'the gateway forwards MCP streaming faithfully';
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
    `upstream ${report.upstreamTransport}, client ${report.clientTransport}, ${(report.durationMs / 1000).toFixed(1)} s`,
    '',
    ` ${'property'.padEnd(nameWidth)} | res  | evidence`,
    rule,
  ];
  for (const r of report.results) {
    const [first, ...rest] = wrap(r.evidence, evidenceWidth);
    lines.push(` ${r.property.padEnd(nameWidth)} | ${MARK[r.verdict]} | ${first}`);
    for (const more of rest) lines.push(` ${''.padEnd(nameWidth)} |      | ${more}`);
  }
  const count = (v: string): number => report.results.filter((r) => r.verdict === v).length;
  lines.push(
    rule,
    `${count('pass')} passed, ${count('fail')} failed, ${count('n/a')} not applicable: ${summary(report)}`,
  );
  return lines.join('\n');
}

const escapeXml = (text: string): string => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * An SVG timeline: one lane per call, upstream send times on the upper line and client arrival
 * times on the lower line, each notification joined to its arrival, so buffering shows as lines
 * fanning into one point.
 */
export function timelineSvg(report: CheckReport): string {
  const calls: (TimelineCall & { property: string })[] = report.results.flatMap((r) =>
    r.calls.map((c) => ({ ...c, property: r.property })),
  );
  const lane = 56;
  const left = 260;
  const plot = 900;
  const height = 48 + Math.max(1, calls.length) * lane;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${left + plot + 20}" height="${height}" font-family="monospace" font-size="11">`,
    `<text x="10" y="16" font-size="13">mcp-golden check: ${escapeXml(report.gateway)}</text>`,
    `<text x="10" y="31" fill="#444">blue: upstream sent a progress notification; orange: the client received it; black square: the result arrived</text>`,
  ];
  calls.forEach((call, i) => {
    const all = [
      ...call.upstreamSentMs,
      ...call.clientReceivedMs,
      ...(call.clientResultMs !== undefined ? [call.clientResultMs] : []),
    ];
    const t0 = Math.min(...all);
    const span = Math.max(1, Math.max(...all) - t0);
    const x = (t: number): number => left + ((t - t0) / span) * plot;
    const top = 48 + i * lane;
    parts.push(
      `<text x="10" y="${top + 14}">${escapeXml(call.property.slice(0, 34))}</text>`,
      `<text x="10" y="${top + 28}" fill="#666">${escapeXml(call.label)} (${span.toFixed(0)} ms)</text>`,
      `<line x1="${left}" y1="${top + 8}" x2="${left + plot}" y2="${top + 8}" stroke="#ddd"/>`,
      `<line x1="${left}" y1="${top + 32}" x2="${left + plot}" y2="${top + 32}" stroke="#ddd"/>`,
    );
    call.clientReceivedMs.forEach((t, n) => {
      const sent = call.upstreamSentMs[n];
      if (sent !== undefined)
        parts.push(
          `<line x1="${x(sent).toFixed(1)}" y1="${top + 8}" x2="${x(t).toFixed(1)}" y2="${top + 32}" stroke="#bbb"/>`,
        );
    });
    for (const t of call.upstreamSentMs)
      parts.push(`<circle cx="${x(t).toFixed(1)}" cy="${top + 8}" r="3" fill="#1f77b4"/>`);
    for (const t of call.clientReceivedMs)
      parts.push(`<circle cx="${x(t).toFixed(1)}" cy="${top + 32}" r="3" fill="#ff7f0e"/>`);
    if (call.clientResultMs !== undefined) {
      parts.push(
        `<rect x="${(x(call.clientResultMs) - 3).toFixed(1)}" y="${top + 29}" width="6" height="6" fill="#000"/>`,
      );
    }
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
