const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function originOf(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * The Streamable HTTP rule against DNS rebinding: a request without an `Origin` header (not from
 * a browser) or from a loopback origin (`localhost`, `127.0.0.1`, `[::1]`, any port) is allowed;
 * any other origin only when `allowedOrigins` lists it (compared as scheme://host:port) or
 * contains `*`. `null` and malformed origins are refused unless `*` is given.
 *
 * @example
 * isAllowedOrigin('http://localhost:5173', [])               // true
 * isAllowedOrigin('https://evil.example', [])                // false
 * isAllowedOrigin('https://app.example', ['https://app.example']) // true
 */
export function isAllowedOrigin(origin: string | undefined, allowedOrigins: readonly string[]): boolean {
  if (origin === undefined) return true;
  if (allowedOrigins.includes('*')) return true;
  const url = originOf(origin);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false;
  if (LOOPBACK_HOSTS.has(url.hostname)) return true;
  return allowedOrigins.some((allowed) => originOf(allowed)?.origin === url.origin);
}
