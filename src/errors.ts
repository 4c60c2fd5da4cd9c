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
 * throw new GoldenError('E_USAGE', 'Unknown command "recrod". Expected one of: serve, record. Run `mcp-golden --help`.')
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
