import { GoldenError } from '../errors.js';
import { memberOf } from '../transcript/json-object.js';

const TLS_CODES =
  /^(CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_(GET|VERIFY)_|EPROTO$|ERR_CERT)/;

function causeCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = 'code' in e ? e.code : undefined;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    e = 'cause' in e ? e.cause : undefined;
  }
  return undefined;
}

function causeMessage(error: unknown): string {
  const cause = memberOf(error, 'cause');
  return cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
}

/** Errors whose fix is the target's address or credentials, not the protocol era (see {@link isAddressFailure}). */
const ADDRESS_FAILURES = new WeakSet<Error>();

/**
 * True for an error that says the target could not be reached, or refused the request as not found
 * (404) or not allowed (401, 403): another protocol era would fare no better, so advice to record
 * in another era does not fit it.
 */
export function isAddressFailure(error: unknown): boolean {
  return error instanceof Error && ADDRESS_FAILURES.has(error);
}

/** The `E_TARGET` error for an HTTP answer with `status` other than the one expected, marked by {@link isAddressFailure} where it applies. */
export function statusError(status: number, message: string): GoldenError {
  const error = new GoldenError('E_TARGET', message);
  if (status === 401 || status === 403 || status === 404) ADDRESS_FAILURES.add(error);
  return error;
}

/**
 * Turns what `fetch` throws when a target cannot be reached into an `E_TARGET` error that says
 * what failed, what was expected and how to fix it (refused connection, unknown host, TLS), instead
 * of undici's bare `TypeError: fetch failed`. `where` names the target without its secrets.
 */
export function connectionError(error: unknown, where: string): GoldenError {
  const failure = unreachable(error, where);
  ADDRESS_FAILURES.add(failure);
  return failure;
}

function unreachable(error: unknown, where: string): GoldenError {
  const code = causeCode(error);
  const detail = `${code ?? 'error'}: ${causeMessage(error)}`;
  if (code === 'ECONNREFUSED') {
    return new GoldenError(
      'E_TARGET',
      `Cannot connect to ${where}: the connection was refused (${detail}). Expected an MCP server listening there. Start the server first, or fix the host and port in --target.`,
    );
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return new GoldenError(
      'E_TARGET',
      `Cannot connect to ${where}: the host name does not resolve (${detail}). Expected a host name DNS knows. Fix the host in --target (for a local server use 127.0.0.1).`,
    );
  }
  if (code !== undefined && TLS_CODES.test(code)) {
    return new GoldenError(
      'E_TARGET',
      `Cannot connect to ${where}: the TLS handshake failed (${detail}). Expected a certificate Node trusts. Use http:// for a plain server, or trust its CA with NODE_EXTRA_CA_CERTS=ca.pem.`,
    );
  }
  return new GoldenError(
    'E_TARGET',
    `Cannot reach ${where}: ${detail}. Expected an MCP server answering HTTP there. Check that it runs and that --target is right.`,
  );
}

/**
 * The hint for an HTTP status that refuses the recorder, or '' for others. `sentHeaders` are the
 * user's own headers (`--header`): a refusal despite them says the credentials, not their absence,
 * are the problem. Only header names are shown, never values.
 */
export function statusHint(status: number, sentHeaders: Readonly<Record<string, string>> = {}): string {
  if (status === 401 || status === 403) {
    const names = Object.keys(sentHeaders);
    if (names.length > 0) {
      return ` The server refused the credentials sent (header${names.length === 1 ? '' : 's'} ${names.join(', ')}): check the value (an expired or wrong token?) and that this is the header your server expects.`;
    }
    return ` The server wants credentials: pass them with --header 'Authorization: Bearer $TOKEN' (or the header your server expects).`;
  }
  if (status === 404) return ' Expected the MCP endpoint: check the path in --target (often /mcp).';
  return '';
}
