// The `mcp-golden` bin as shipped: src/cli/main.ts bundled by rolldown with its dependencies (the SDK,
// zod, ajv, json-p3, json-diff-ts) into dist/bin/, so a process start reads a few chunks instead of
// ~300 modules (docs/benchmarks.md, "CLI start"). Only the bin: the library subpaths stay tsc's
// modules in dist/ and import their dependencies from node_modules.
//
// - Code splitting keeps the CLI's lazy loading: each dynamic import (a command's declaration, then
//   its implementation) is a chunk of its own, so `--help` and usage errors read declaration chunks
//   only (src/cli/run-cli.test.ts checks it on the bundle through the chunks' source maps).
// - One flat folder: every chunk sits in dist/bin/, one level under dist/ as dist/cli/ and dist/record/
//   are, so the `new URL(..., import.meta.url)` the sources use (../../package.json for --version,
//   ../record/standard-scenarios.json, ../bin/mcp-golden.js for the reference server on stdio)
//   resolve to the same files from a chunk as from tsc's module.
// - Source maps (without the sources' text) beside each chunk; the entry turns them on before it
//   loads the CLI, so a stack trace names src/**/*.ts lines, as `node --enable-source-maps` would.
// - Node's modules and the optional peers (vitest, msw, fast-check) stay imports: the CLI reaches
//   none of the peers, and a peer is the user's copy, never ours.
import { rmSync } from 'node:fs';
import { join } from 'node:path';

/** The folder the bundle is written to, and its entry (package.json's `bin`). */
export const BIN_DIR = 'dist/bin';
export const BIN_ENTRY = 'mcp-golden.js';

const ENTRY_ID = '\0mcp-golden-bin-entry';
const PEERS = /^(?:vitest|msw|fast-check)(?:\/|$)/;

/**
 * The bundle's entry: turns on source maps, then loads the CLI. The CLI is imported dynamically so
 * every chunk, its first static imports too, loads after the maps are on (a module's map is read
 * when it loads).
 */
function entryPlugin(main) {
  return {
    name: 'mcp-golden-bin-entry',
    resolveId: (id) => (id === ENTRY_ID ? ENTRY_ID : undefined),
    load: (id) =>
      id === ENTRY_ID ? `process.setSourceMapsEnabled(true);\nawait import(${JSON.stringify(main)});\n` : undefined,
  };
}

/** Writes dist/bin/ (emptied first) from src/cli/main.ts; returns the chunks' file names. */
export async function bundleBin(root) {
  const { build } = await import('rolldown');
  const dir = join(root, BIN_DIR);
  rmSync(dir, { recursive: true, force: true });
  const { output } = await build({
    cwd: root,
    input: { 'mcp-golden': ENTRY_ID },
    platform: 'node',
    external: (id) => id.startsWith('node:') || PEERS.test(id),
    plugins: [entryPlugin(join(root, 'src/cli/main.ts'))],
    // package.json's `sideEffects` names dist/ files, so every src/ module would count as free of
    // them: main.ts would be dropped whole. Our modules keep their statements; dependencies keep
    // their own package.json's say.
    treeshake: { moduleSideEffects: (id) => (id.startsWith(join(root, 'src/')) ? true : undefined) },
    logLevel: 'warn',
    output: {
      dir,
      format: 'esm',
      banner: (chunk) => (chunk.isEntry ? '#!/usr/bin/env node' : ''),
      entryFileNames: BIN_ENTRY,
      chunkFileNames: '[name]-[hash].js',
      sourcemap: true,
      sourcemapExcludeSources: true,
    },
  });
  return output.filter((file) => file.type === 'chunk').map((chunk) => chunk.fileName);
}
