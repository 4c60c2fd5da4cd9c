import { REDACTED } from '../transcript/redact.js';

/** Names of arguments, environment variables and query parameters whose values are secrets. */
const SECRET_NAME = /key|token|secret|passw|pwd|auth|credential|cookie|session/i;

/** A secret shorter than this is not searched for in frames: it would rewrite ordinary text. */
const MIN_SECRET_LENGTH = 3;

/** What a target hides, and how to name it without its secrets. */
export interface TargetSecrets {
  /** The target as the golden header names it, secrets replaced by `<redacted>`. */
  readonly label: string;
  /** Literal secret values to redact wherever they appear in frames (protocol fields excepted). */
  readonly values: readonly string[];
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Patterns matching the secret values literally, longest first (a secret may contain another). */
export function secretPatterns(values: readonly string[]): RegExp[] {
  return [...new Set(values)]
    .filter((value) => value.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length)
    .map((value) => new RegExp(escapeRegExp(value), 'g'));
}

function withEncodings(value: string): string[] {
  return [value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2)];
}

/** An HTTP endpoint split into what is sent and what is recorded. */
export interface HttpTargetParts extends TargetSecrets {
  /** The URL to send to: without userinfo (fetch refuses it). */
  readonly url: string;
  /** Headers to send: the given ones, plus Basic auth from the URL's userinfo. */
  readonly headers: Readonly<Record<string, string>>;
  /** Header names whose values are redacted in frames (every header the user gave). */
  readonly secretHeaders: readonly string[];
}

/**
 * Prepares an HTTP target: userinfo becomes a Basic `Authorization` header (unless one is given),
 * and every userinfo part, query value and given header value is a secret.
 */
export function httpTargetParts(endpoint: string, given: Readonly<Record<string, string>> = {}): HttpTargetParts {
  const url = new URL(endpoint);
  const values: string[] = [];
  const headers: Record<string, string> = { ...given };
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  if (user !== '' || password !== '') {
    values.push(...withEncodings(user), ...withEncodings(password));
    const hasAuth = Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
    if (!hasAuth) headers.Authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  const sent = url.toString();
  for (const [, value] of url.searchParams) values.push(...withEncodings(value));
  for (const value of Object.values(headers)) {
    values.push(value);
    // `Bearer abc`: the credential alone may be echoed too.
    const credential = value.split(/\s+/).at(-1);
    if (credential) values.push(credential);
  }
  const shown = new URL(sent);
  for (const name of [...new Set(shown.searchParams.keys())]) shown.searchParams.set(name, REDACTED);
  return {
    url: sent,
    headers,
    secretHeaders: Object.keys(headers),
    label: shown.search === '' ? sent : `${shown.origin}${shown.pathname}?${decodeURIComponent(shown.search.slice(1))}`,
    values,
  };
}

/**
 * Finds the secrets of a stdio command: values of secret-named arguments (`--token X`,
 * `--api-key=X`, `API_KEY=X`) and of secret-named environment variables. The label is the command
 * line with those values replaced.
 */
export function stdioTargetSecrets(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): TargetSecrets {
  const values: string[] = [];
  const shown: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const assigned = /^(-{0,2}[A-Za-z0-9_.-]+)=(.*)$/s.exec(arg);
    if (assigned && SECRET_NAME.test(assigned[1] as string)) {
      values.push(assigned[2] as string);
      shown.push(`${assigned[1]}=${REDACTED}`);
    } else if (
      /^--?[A-Za-z]/.test(arg) &&
      SECRET_NAME.test(arg) &&
      i + 1 < args.length &&
      !args[i + 1]?.startsWith('-')
    ) {
      values.push(args[i + 1] as string);
      shown.push(arg, REDACTED);
      i++;
    } else shown.push(arg);
  }
  for (const [name, value] of Object.entries(env)) if (SECRET_NAME.test(name)) values.push(value);
  return { label: [command, ...shown].join(' '), values };
}
