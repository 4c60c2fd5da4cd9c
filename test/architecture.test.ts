import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'src');
const KERNEL = new Set(['errors.ts', 'version.ts', 'wrap.ts']);

/** The room of a file under src/: its top folder; `kernel` for errors/version/wrap; `entry` for the other root files. */
function roomOf(file: string): string {
  const [top, ...rest] = relative(src, file).split('/');
  if (rest.length > 0) return top ?? '';
  return top !== undefined && KERNEL.has(top.replace(/\.js$/, '.ts')) ? 'kernel' : 'entry';
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every arrow between rooms that the code's relative imports draw, with one example each. */
function arrowsInCode(): Map<string, string> {
  const arrows = new Map<string, string>();
  for (const file of sourceFiles(src)) {
    const from = roomOf(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const to = roomOf(resolve(file, '..', match[1] ?? ''));
      if (to !== from) arrows.set(`${from} -> ${to}`, relative(root, file));
    }
  }
  return arrows;
}

/** The arrows docs/architecture.md allows, from its rooms table. */
function arrowsInDoc(): { rooms: Set<string>; arrows: Set<string> } {
  const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const table = doc.slice(doc.indexOf('<!-- rooms:start -->'), doc.indexOf('<!-- rooms:end -->'));
  const rooms = new Set<string>();
  const arrows = new Set<string>();
  for (const line of table.split('\n').slice(3)) {
    const cells = line.split('|').map((cell) => cell.trim());
    const [room, , imports] = cells.slice(1);
    if (!room) continue;
    rooms.add(room);
    if (room === 'entry') continue;
    for (const to of (imports ?? '').split(',').map((s) => s.trim())) if (to) arrows.add(`${room} -> ${to}`);
  }
  return { rooms, arrows };
}

test('every folder of src/ is a room described in docs/architecture.md', () => {
  const { rooms } = arrowsInDoc();
  expect(rooms.has('entry')).toBe(true);
  const folders = readdirSync(src, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  expect(folders.filter((folder) => !rooms.has(folder))).toEqual([]);
});

test('imports between rooms point only where docs/architecture.md allows', () => {
  const { arrows } = arrowsInDoc();
  const code = arrowsInCode();
  const undeclared = [...code]
    .filter(([arrow]) => !arrow.startsWith('entry -> ') && !arrow.endsWith(' -> kernel') && !arrows.has(arrow))
    .map(([arrow, file]) => `${arrow} (${file})`);
  expect(undeclared).toEqual([]);
  expect([...code.keys()].filter((arrow) => arrow.startsWith('entry -> cli'))).toEqual([]);
  expect(
    [...code].filter(([arrow]) => arrow.startsWith('kernel -> ')).map(([arrow, file]) => `${arrow} (${file})`),
  ).toEqual([]);
});

test('every arrow in docs/architecture.md is drawn by an import', () => {
  const { arrows } = arrowsInDoc();
  const code = arrowsInCode();
  expect([...arrows].filter((arrow) => !code.has(arrow))).toEqual([]);
});

/** Every source file `file` loads through static relative imports (type-only ones included), itself too. */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/(?:from|import)\s+'(\.{1,2}\/[^']+)'/g)) {
    staticClosure(resolve(file, '..', (match[1] ?? '').replace(/\.js$/, '.ts')), seen);
  }
  return seen;
}

test("the CLI's shared command code loads nothing from check/ (each command loads its own rooms)", () => {
  const shared = [...staticClosure(join(src, 'cli/run-cli.ts'))].map((file) => relative(src, file));
  expect(shared.filter((file) => file.startsWith('check/'))).toEqual([]);
});

/** The files under src/ (tests excepted) whose text matches `pattern`, relative to src/, sorted. */
function filesMatching(pattern: RegExp): string[] {
  return sourceFiles(src)
    .filter((file) => pattern.test(readFileSync(file, 'utf8')))
    .map((file) => relative(src, file))
    .sort();
}

test('one MCP client: the initialize request is built in one file and the handshake sent from one', () => {
  expect(filesMatching(/method:\s*'initialize'/)).toEqual(['transcript/json-rpc.ts']);
  expect(filesMatching(/'notifications\/initialized'/)).toEqual(['transcript/json-rpc.ts']);
  // The client's handshake file sends them; the cross-era replay only re-frames a golden with one.
  expect(filesMatching(/\b(legacyInitialize|INITIALIZED)\b/)).toEqual([
    'record/client-handshake.ts',
    'replay/cross-era.ts',
    'transcript/json-rpc.ts',
  ]);
  expect(filesMatching(/\bINITIALIZED\b/)).toEqual(['record/client-handshake.ts', 'transcript/json-rpc.ts']);
});

test('one MCP client: a RecordTarget is told apart (URL, options, command) in one file', () => {
  expect(filesMatching(/'url' in \w|instanceof URL\b/)).toEqual(['record/open-target.ts']);
});

test('one Arrival: a single interface in src/ for a message a client received, live or read from a golden', () => {
  expect(filesMatching(/\binterface\s+Arrival\b|\btype\s+Arrival\s*(<[^>]*>)?\s*=/)).toEqual([
    'transcript/read-calls.ts',
  ]);
});
