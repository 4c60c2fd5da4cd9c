import { GoldenNotesSchema } from '../transcript/golden-notes.js';
import type { ReaderOptions } from '../transcript/parse.js';

/**
 * How the reference server's recordings were labelled before the header had `notes.reference`
 * (`mcp-golden serve`, `mcp-golden serve --stdio`, ...): goldens recorded then are read as if they
 * carried the note.
 */
const LEGACY_REFERENCE_LABEL = /^mcp-golden serve(?: |$)/;

/** What a golden's header says about who recorded it (read before the header is validated). */
export interface RecordedBy {
  readonly scenario?: unknown;
  readonly transport?: unknown;
  readonly target?: unknown;
  readonly notes?: unknown;
}

/**
 * Whether a golden was recorded from mcp-golden's reference server: its `notes.reference`, or, in a
 * golden written before that note existed, the reference server's label as its target.
 */
export function isReferenceGolden(header: RecordedBy): boolean {
  // The header may not be validated yet (a fix command for a broken golden): notes that do not parse say nothing.
  const notes = GoldenNotesSchema.safeParse(header.notes ?? {});
  if (notes.success && notes.data.reference !== undefined) return notes.data.reference;
  return typeof header.target === 'string' && LEGACY_REFERENCE_LABEL.test(header.target);
}

const shellQuote = (text: string): string =>
  /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * The command that records a golden again, from its header: the scenario name alone for a reference
 * golden (see {@link isReferenceGolden}), or the user's own server as the header names it, with
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
  if (isReferenceGolden(header)) return `npx mcp-golden record ${name}`;
  const server =
    transport === 'stdio'
      ? `--stdio ${typeof target === 'string' ? shellQuote(target) : "'<server command>'"}`
      : `--target ${typeof target === 'string' ? shellQuote(target) : '<url>'}`;
  return `npx mcp-golden record ${name} ${server} --scenarios <scenarios.json> --out ${outDir === undefined ? '<dir>' : shellQuote(outDir)}`;
}

/**
 * Reader options whose errors name the command that records the golden again, read from its
 * header (`npx mcp-golden record` when the header names no scenario), unless `regenerate` is given.
 */
export function withRecordCommand<T extends ReaderOptions>(options: T): T {
  if (options.regenerate !== undefined) return options;
  return { ...options, regenerate: 'npx mcp-golden record', regenerateFor: recordCommandOf };
}
