const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * Whether a request's `Origin` may reach a local MCP server. The spec requires servers to
 * validate `Origin` against DNS rebinding: a page on another site must not drive a server on
 * loopback. No `Origin` (a non-browser client) and loopback origins are always allowed; any other
 * origin only when listed exactly in `allowedOrigins` (or when the list holds `*`).
 *
 * @example
 * isAllowedOrigin('http://localhost:5173', [])                      // true
 * isAllowedOrigin('https://evil.example', [])                       // false
 * isAllowedOrigin('https://app.example', ['https://app.example'])   // true
 */
export function isAllowedOrigin(origin: string | undefined, allowedOrigins: readonly string[]): boolean {
  if (origin === undefined) return true;
  if (allowedOrigins.includes('*') || allowedOrigins.includes(origin)) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}
