import { fileURLToPath } from 'node:url';

/**
 * The command that runs this package's reference server on stdio (`mcp-golden serve --stdio`),
 * with the current Node binary and the bundled bin (package.json's `bin`, dist/bin/), which starts
 * for about half the CPU of tsc's modules. From the TypeScript sources (tests) it points at the
 * build in dist/; from dist/server/ and from the bin's own chunks (dist/bin/) `../bin/` is the same folder.
 */
export function referenceStdioCommand(): { command: string; args: string[]; label: string } {
  const fromSource = import.meta.url.endsWith('.ts');
  const cli = fileURLToPath(
    new URL(fromSource ? '../../dist/bin/mcp-golden.js' : '../bin/mcp-golden.js', import.meta.url),
  );
  return { command: process.execPath, args: [cli, 'serve', '--stdio'], label: 'mcp-golden serve --stdio' };
}
