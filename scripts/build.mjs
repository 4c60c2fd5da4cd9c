// `npm run build`: compiles src/ into dist/ with tsc, copies the non-TypeScript files that ship, bundles
// the bin into dist/bin/ (scripts/bundle-bin.mjs), and records a digest of everything the build reads.
// The test suite's global setup, `npm run demo` and `npm run goldens` build with `--if-stale`, only
// when that digest changed, so a second run does not compile the same sources again, while an edited
// source, tsconfig, TypeScript version or installed dependency (the bin bundles them) is always
// rebuilt. `npm pack` builds in `prepack`; there is no `prepare`, so installing the package never
// runs a build script (scripts/ does not ship).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BIN_DIR, BIN_ENTRY, bundleBin } from './bundle-bin.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const ASSETS = ['transcript/golden.schema.json', 'record/standard-scenarios.json', 'record/scenario.schema.json'];
/** Kept beside the installed packages (like vite's cache), so it never ships in dist/. */
const STAMP = join(root, 'node_modules/.cache/mcp-golden/dist-inputs.sha256');

/** The sources tsc compiles (src/**\/*.ts but tests), relative to src/, sorted. */
function sources() {
  return readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts'))
    .map((path) => path.split('\\').join('/'))
    .sort();
}

/**
 * SHA-256 of what the build reads: every compiled source and shipped asset (path and bytes), the two
 * tsconfigs, package.json, package-lock.json (the versions of the dependencies the bin bundles), these
 * scripts and the TypeScript and rolldown versions.
 */
export function inputsDigest(files = sources()) {
  const hash = createHash('sha256');
  const add = (label, bytes) => hash.update(`${label}\0${bytes.length}\0`).update(bytes);
  for (const path of [...files, ...ASSETS]) {
    const file = join(root, 'src', path);
    add(`src/${path}`, existsSync(file) ? readFileSync(file) : Buffer.alloc(0));
  }
  for (const path of [
    'tsconfig.json',
    'tsconfig.build.json',
    'package.json',
    'package-lock.json',
    'scripts/build.mjs',
    'scripts/bundle-bin.mjs',
  ])
    add(path, existsSync(join(root, path)) ? readFileSync(join(root, path)) : Buffer.alloc(0));
  for (const tool of ['typescript', 'rolldown'])
    add(tool, readFileSync(join(root, 'node_modules', tool, 'package.json')));
  return hash.digest('hex');
}

/** Whether dist/ was built from exactly these inputs and still holds a module for every source. */
function isFresh(digest, files) {
  if (!existsSync(STAMP) || readFileSync(STAMP, 'utf8').trim() !== digest) return false;
  const shipped = files
    .map((path) => `dist/${path.replace(/\.ts$/, '.js')}`)
    .concat(
      ASSETS.map((a) => `dist/${a}`),
      `${BIN_DIR}/${BIN_ENTRY}`,
    );
  return shipped.every((path) => existsSync(join(root, path)));
}

/**
 * Builds dist/. With `ifStale`, does nothing when dist/ was built from the current inputs. Resolves
 * to whether it compiled. The digest is taken before compiling, so a source edited during the build
 * leaves a stamp that no longer matches and the next run rebuilds.
 */
export async function build({ ifStale = false } = {}) {
  const files = sources();
  const digest = inputsDigest(files);
  if (ifStale && isFresh(digest, files)) return false;
  rmSync(STAMP, { force: true });
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  for (const asset of ASSETS) {
    if (existsSync(join(root, 'src', asset))) cpSync(join(root, 'src', asset), join(root, 'dist', asset));
  }
  await bundleBin(root);
  chmodSync(join(root, BIN_DIR, BIN_ENTRY), 0o755);
  mkdirSync(dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, `${digest}\n`);
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    await build({ ifStale: process.argv.includes('--if-stale') });
  } catch (error) {
    // tsc has printed its diagnostics; its exit status is ours (rolldown's errors are printed here).
    process.exitCode = typeof error?.status === 'number' ? error.status : 1;
    if (typeof error?.status !== 'number') console.error(error);
  }
}
