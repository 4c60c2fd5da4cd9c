import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Builds dist/ once before the suite, so tests that spawn the `mcp-golden` binary run the code
 * under test, never a stale build.
 */
export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  execFileSync(process.execPath, [`${root}scripts/copy-assets.mjs`], { cwd: root, stdio: 'inherit' });
}
