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
