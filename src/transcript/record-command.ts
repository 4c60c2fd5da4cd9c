/** How the label of every reference-server recording begins (`mcp-golden serve`, `mcp-golden serve --stdio`, ...). */
const REFERENCE_LABEL = /^mcp-golden serve(?: |$)/;

/** What a golden's header says about who recorded it (read before the header is validated). */
export interface RecordedBy {
  readonly scenario?: unknown;
  readonly transport?: unknown;
  readonly target?: unknown;
}

const shellQuote = (text: string): string =>
  /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * The command that records a golden again, from its header: the scenario name alone for a reference
 * golden (recorded from `mcp-golden serve`), or the user's own server as the header names it, with
 * `--scenarios` to fill in and `--out` the golden's folder. Undefined when the header names no scenario.
 *
 * @example
 * recordCommandOf({ scenario: 'echo', transport: 'stdio', target: 'node server.js' }, 'goldens')
 * // "npx mcp-golden record echo --stdio 'node server.js' --scenarios <scenarios.json> --out goldens"
 */
export function recordCommandOf(header: RecordedBy, outDir?: string): string | undefined {
  const { scenario, transport, target } = header;
  if (typeof scenario !== 'string') return undefined;
  const name = shellQuote(scenario);
  if (typeof target === 'string' && REFERENCE_LABEL.test(target)) return `npx mcp-golden record ${name}`;
  const server =
    transport === 'stdio'
      ? `--stdio ${typeof target === 'string' ? shellQuote(target) : "'<server command>'"}`
      : `--target ${typeof target === 'string' ? shellQuote(target) : '<url>'}`;
  return `npx mcp-golden record ${name} ${server} --scenarios <scenarios.json> --out ${outDir === undefined ? '<dir>' : shellQuote(outDir)}`;
}
