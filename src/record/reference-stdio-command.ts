import { fileURLToPath } from 'node:url';
import type { StdioCommand } from './stdio-wire-session.js';

/**
 * The command that runs this package's reference server on stdio (`mcp-golden serve --stdio`),
 * with the current Node binary. From the TypeScript sources (tests) it points at the build in dist/.
 */
export function referenceStdioCommand(): StdioCommand {
  const fromSource = import.meta.url.endsWith('.ts');
  const cli = fileURLToPath(new URL(fromSource ? '../../dist/cli/main.js' : '../cli/main.js', import.meta.url));
  return { command: process.execPath, args: [cli, 'serve', '--stdio'], label: 'mcp-golden serve --stdio' };
}
