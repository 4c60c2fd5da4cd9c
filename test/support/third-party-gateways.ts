import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CheckReport } from 'mcp-golden/check';

// The real gateways `check` is tested against are one file each (test/e2e/third-party-gateways/), so
// their batteries run in parallel workers instead of one after another in a single file.

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The gateway script that runs Debian's nginx in front of an upstream (faithful or buffering config). */
export const NGINX_GATEWAY = join(root, 'test/support/nginx-gateway.sh');

/** The supergateway binary installed from npm. */
export const SUPERGATEWAY = join(root, 'node_modules/.bin/supergateway');

/** The mcp-remote binary installed from npm (a Streamable HTTP server bridged to a stdio client). */
export const MCP_REMOTE = join(root, 'node_modules/.bin/mcp-remote');

const hasNginx = (() => {
  try {
    execFileSync('nginx', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** True on a developer machine without nginx; CI installs nginx (.ci/run) and fails loudly instead. */
export const nginxMissing = !hasNginx && !process.env.CI;

/** Each property's verdict, by property name. */
export const verdicts = (report: CheckReport): Record<string, string> =>
  Object.fromEntries(report.results.map((r) => [r.property, r.verdict]));
