import { fileURLToPath } from 'node:url';

/**
 * The command that runs this package's reference server on stdio (`mcp-golden serve --stdio`),
 * with the current Node binary. From the TypeScript sources (tests) it points at the build in dist/.
 */
export function referenceStdioCommand(): { command: string; args: string[]; label: string } {
  const fromSource = import.meta.url.endsWith('.ts');
  const cli = fileURLToPath(new URL(fromSource ? '../../dist/cli/main.js' : '../cli/main.js', import.meta.url));
  return { command: process.execPath, args: [cli, 'serve', '--stdio'], label: 'mcp-golden serve --stdio' };
}
