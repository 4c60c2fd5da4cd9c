/**
 * Stable error codes carried by every {@link GoldenError}. Tests and tools match on the code,
 * never on the message text.
 */
export type GoldenErrorCode =
  | 'E_ARGUMENTS'
  | 'E_UNKNOWN_TOOL'
  | 'E_GOLDEN_MISSING'
  | 'E_GOLDEN_PARSE'
  | 'E_GOLDEN_VERSION'
  | 'E_GOLDEN_WRITE'
  | 'E_SCENARIO'
  | 'E_RECORD'
  | 'E_TARGET'
  | 'E_TIMEOUT'
  | 'E_USAGE';

/**
 * The one error type mcp-golden throws on purpose. Its message follows the house form:
 * what failed, what happened, what was expected, and how to fix it.
 *
 * @example
 * throw new GoldenError('E_USAGE', 'Unknown command "recrod". Did you mean record? Run `mcp-golden --help`.')
 */
export class GoldenError extends Error {
  /** Stable machine-readable code. */
  readonly code: GoldenErrorCode;

  constructor(code: GoldenErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GoldenError';
    this.code = code;
  }
}

/** True when `error` is a {@link GoldenError}, optionally with the given code. */
export function isGoldenError(error: unknown, code?: GoldenErrorCode): error is GoldenError {
  return error instanceof GoldenError && (code === undefined || error.code === code);
}

/**
 * The message of `error` followed by the causes it wraps, with their system codes, so that
 * "fetch failed" or "terminated" keep what actually happened ("fetch failed (ECONNRESET: read
 * ECONNRESET)").
 */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    if (current instanceof Error) {
      const code = (current as NodeJS.ErrnoException).code;
      const text = current.message || current.name;
      parts.push(code && !text.includes(String(code)) && !isGoldenError(current) ? `${code}: ${text}` : text);
      current = current.cause;
    } else {
      parts.push(String(current));
      current = undefined;
    }
  }
  const [head = 'unknown error', ...causes] = parts.filter((p, i) => p && parts.indexOf(p) === i);
  return causes.length > 0 ? `${head} (${causes.join('; ')})` : head;
}

/** Edit distance, for did-you-mean suggestions. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(
        (row[j] ?? 0) + 1,
        (next[j - 1] ?? 0) + 1,
        (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    row = next;
  }
  return row[b.length] ?? 0;
}

/** The closest of `candidates` to `word`, when it is close enough to be a typo; else `undefined`. */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const name of candidates) {
    // A prefix counts as a near miss, but never nearer than a one-letter slip of another name.
    const prefix = name.startsWith(word) || word.startsWith(name);
    const d = Math.min(distance(word, name), prefix ? 1.5 : Number.POSITIVE_INFINITY);
    if (!best || d < best.d) best = { name, d };
  }
  return best && best.d <= Math.max(2, Math.floor(word.length / 3)) ? best.name : undefined;
}
