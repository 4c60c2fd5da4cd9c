import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/** Every relative specifier `file` names: `import`, `import type`, `export ... from`, side-effect and dynamic `import()`. */
function specifiersOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((match) =>
    resolve(file, '..', (match[1] ?? '').replace(/\.js$/, '.ts')),
  );
}

/** The import graph of src/ (test files left out), file -> the source files it names. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(src)) graph.set(file, specifiersOf(file));
  return graph;
}

/** One shortest cycle through `start`, as `a.ts -> b.ts -> a.ts`, or undefined. */
function cycleThrough(graph: Map<string, string[]>, start: string): string | undefined {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const to of graph.get(next) ?? []) {
      if (to === start) {
        const path = [next];
        for (let at = next; at !== start; ) {
          at = cameFrom.get(at) as string;
          path.unshift(at);
        }
        return [...path, start].map((file) => relative(src, file)).join(' -> ');
      }
      if (!cameFrom.has(to) && graph.has(to)) {
        cameFrom.set(to, next);
        queue.push(to);
      }
    }
  }
  return undefined;
}

test('no import circle anywhere in src/, type-only imports and re-exports included', () => {
  const graph = importGraph();
  const cycles = new Set<string>();
  const inCycle = new Set<string>();
  for (const file of graph.keys()) {
    if (inCycle.has(file)) continue;
    const cycle = cycleThrough(graph, file);
    if (!cycle) continue;
    cycles.add(cycle);
    for (const name of cycle.split(' -> ')) inCycle.add(join(src, name));
  }
  expect([...cycles]).toEqual([]);
});

/** The CLI's command names, from its one table of commands (src/cli/run-cli.ts). */
function cliCommands(): string[] {
  const table = readFileSync(join(src, 'cli/run-cli.ts'), 'utf8');
  return [...table.matchAll(/^\s*\['([a-z-]+)', async \(\) =>/gm)].map((match) => match[1] as string);
}

test('the transcript core spells no CLI flag and no `mcp-golden <command>`: its callers name the fix', () => {
  const commands = cliCommands();
  expect(commands).toEqual(expect.arrayContaining(['serve', 'record', 'verify', 'lint']));
  // A flag is `--` then a letter, not inside a word or an arrow; a command is `mcp-golden` and a command name.
  const spelling = new RegExp(`(?<![\\w-])--[a-z]|\\bmcp-golden (?:${commands.join('|')})\\b`);
  const shipped = readdirSync(join(src, 'transcript'), { recursive: true, encoding: 'utf8' })
    .filter((name) => (name.endsWith('.ts') && !name.endsWith('.test.ts')) || name.endsWith('.json'))
    .map((name) => join(src, 'transcript', name));
  expect(shipped.length).toBeGreaterThan(20);
  const found = shipped.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (spelling.test(line) ? [`${relative(root, file)}:${i + 1}: ${line.trim()}`] : [])),
  );
  expect(found).toEqual([]);
});

test("the CLI's shared command code loads nothing from check/ (each command loads its own rooms)", () => {
  const shared = [...staticClosure(join(src, 'cli/run-cli.ts'))].map((file) => relative(src, file));
  expect(shared.filter((file) => file.startsWith('check/'))).toEqual([]);
});

test('check/: only the runner imports the battery list, only the entry points import the runner, rows import no other family', () => {
  const graph = importGraph();
  const check = (name: string): string => join(src, 'check', name);
  const importersOf = (file: string): string[] =>
    [...graph]
      .filter(([, targets]) => targets.includes(file))
      .map(([importer]) => relative(src, importer))
      .sort();
  expect(importersOf(check('battery.ts'))).toEqual(['check/run-check.ts']);
  expect(importersOf(check('run-check.ts')).filter((f) => f !== 'check/index.ts' && !f.startsWith('cli/'))).toEqual([]);
  const inCheck = (file: string): boolean => file.startsWith(join(src, 'check/'));
  expect((graph.get(check('vocabulary.ts')) ?? []).filter(inCheck).map((f) => relative(src, f))).toEqual([]);
  const rowToRow = [...graph]
    .filter(([file]) => file.startsWith(check('rows/')))
    .flatMap(([file, targets]) =>
      targets.filter((t) => t.startsWith(check('rows/'))).map((t) => `${relative(src, file)} -> ${relative(src, t)}`),
    );
  expect(rowToRow).toEqual([]);
});

test('check/: no row decides n/a itself, and every row is built with row()', () => {
  const rows = sourceFiles(join(src, 'check', 'rows'));
  // What a row needs is declared once (`row(…, { needs })`) and checked by the runner; a row that
  // ran and found nothing to judge says so with the kit's notExercised.
  const inline = rows.filter((file) => /'n\/a'/.test(readFileSync(file, 'utf8'))).map((file) => relative(src, file));
  expect(inline).toEqual([]);
  // A row written as an object literal skips row(): an error it throws would escape as no result.
  const literal = rows
    .filter((file) => /:\s*BatteryProperty\s*=\s*\{|\brun\s*\(\s*context/.test(readFileSync(file, 'utf8')))
    .map((file) => relative(src, file));
  expect(literal).toEqual([]);
});

test('check/: no function is longer than 80 lines', async () => {
  const ts = (await import('typescript')).default;
  const long: string[] = [];
  for (const file of sourceFiles(join(src, 'check'))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: import('typescript').Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const last = source.getLineAndCharacterOfPosition(node.end).line;
        if (last - first + 1 > 80) long.push(`${relative(src, file)}:${first + 1} (${last - first + 1} lines)`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  expect(long).toEqual([]);
});

/** The files of check/ as docs/architecture.md's table names them (`rows/<family>.ts` stands for every row file). */
function checkKeyOf(file: string): string {
  const name = relative(join(src, 'check'), file).replace(/\.ts$/, '');
  return name.startsWith('rows/') ? 'rows' : name;
}

test("imports inside check/ point only where docs/architecture.md's table of check/ allows, and every file is in it", () => {
  const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const table = doc.slice(doc.indexOf('<!-- check-files:start -->'), doc.indexOf('<!-- check-files:end -->'));
  const files: string[] = [];
  const allowed = new Set<string>();
  for (const line of table.split('\n').slice(3)) {
    const [file, , imports] = line
      .split('|')
      .slice(1)
      .map((cell) => cell.trim());
    if (!file) continue;
    const key = file
      .replace(/`/g, '')
      .replace(/\.ts$/, '')
      .replace(/\/<family>$/, '');
    files.push(key);
    for (const to of (imports ?? '').split(',').map((s) => s.trim())) if (to) allowed.add(`${key} -> ${to}`);
  }
  const inCheck = (file: string): boolean => file.startsWith(join(src, 'check/'));
  const drawn = new Map<string, string>();
  for (const [file, targets] of importGraph()) {
    if (!inCheck(file)) continue;
    for (const to of targets.filter(inCheck)) {
      if (checkKeyOf(to) !== checkKeyOf(file))
        drawn.set(`${checkKeyOf(file)} -> ${checkKeyOf(to)}`, relative(src, file));
    }
  }
  const checkFiles = sourceFiles(join(src, 'check')).map(checkKeyOf);
  expect([...new Set(checkFiles)].filter((key) => !files.includes(key))).toEqual([]);
  // Each file imports only files listed above it: the table reads from the words to the runner.
  expect(
    [...allowed].filter((arrow) => {
      const [from = '', to = ''] = arrow.split(' -> ');
      return !(files.indexOf(to) >= 0 && files.indexOf(to) < files.indexOf(from));
    }),
  ).toEqual([]);
  expect([...drawn].filter(([arrow]) => !allowed.has(arrow)).map(([arrow, file]) => `${arrow} (${file})`)).toEqual([]);
  expect([...allowed].filter((arrow) => !drawn.has(arrow))).toEqual([]);
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
  // The client's handshake file sends them; the cross-era replay only re-frames a golden with one, and
  // the client check's made golden records one (it is data the replay answers, not a client).
  expect(filesMatching(/\b(legacyInitialize|INITIALIZED)\b/)).toEqual([
    'client-check/goldens.ts',
    'record/client-handshake.ts',
    'replay/cross-era.ts',
    'transcript/json-rpc.ts',
  ]);
  expect(filesMatching(/\bINITIALIZED\b/)).toEqual([
    'client-check/goldens.ts',
    'record/client-handshake.ts',
    'transcript/json-rpc.ts',
  ]);
});

test('one MCP client: a RecordTarget is told apart (URL, options, command) in one file', () => {
  expect(filesMatching(/'url' in \w|instanceof URL\b/)).toEqual(['record/open-target.ts']);
});

test('one MCP client: the check speaks to a gateway only through the wire sessions (no fetch or SSE parser of its own)', () => {
  expect(
    filesMatching(/\bfetch\(|\brecordingFetch\b|\bSseParser\b|\bsseBlocksOfRead\b|\bnode:https?\b/).filter((file) =>
      file.startsWith('check/'),
    ),
  ).toEqual([]);
});

test('one Arrival: a single interface in src/ for a message a client received, live or read from a golden', () => {
  expect(filesMatching(/\binterface\s+Arrival\b|\btype\s+Arrival\s*(<[^>]*>)?\s*=/)).toEqual([
    'transcript/read-calls.ts',
  ]);
});

test('a test under src/ is a unit test beside its source file; suites live under test/', () => {
  const orphans = readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .filter((name) => !existsSync(join(src, name.replace(/\.test\.ts$/, '.ts'))))
    .sort();
  expect(orphans).toEqual([]);
});

test("commands run in process: no CLI file but the bin and cli-io.ts touches the process's streams, working directory or exit code", () => {
  const reach = /\bprocess\.(?:stdout|stderr|stdin|cwd\s*\(|exitCode|exit\s*\()/;
  const allowed = new Set(['src/cli/main.ts', 'src/cli/cli-io.ts', 'src/cli/stop-on-signal.ts']);
  const offenders = sourceFiles(join(src, 'cli'))
    .map((file) => relative(root, file))
    .filter((file) => !allowed.has(file))
    .filter((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .some((line) => !/^\s*(?:\*|\/\/)/.test(line) && reach.test(line)),
    );
  expect(offenders).toEqual([]);
});

test('one reader of an incoming request: only http/read-request.ts reads the 2026-07-28 envelope or Mcp-Method/Mcp-Name off a request it answers', () => {
  // The answering rooms (serve, replay, msw, the pass-through in replay/passthrough/) take era,
  // version, method, name and refusal from readRequest; the recorder builds envelopes and labels
  // goldens (record/session-golden.ts labels a session's golden by its era).
  const reads =
    /\benvelopeVersion\(|\bENVELOPE_KEYS\.(?:protocolVersion|clientCapabilities)\b(?!\}"\])|['"]io\.modelcontextprotocol\/(?:protocolVersion|clientCapabilities)['"]\s+in\b|\bheaders\[['"]mcp-(?:method|name)['"]\]|\bhasModernHeaders\b|\bheaderMismatch\(/;
  const answering = sourceFiles(src)
    .map((file) => relative(src, file))
    .filter((file) => /^(?:server|replay|msw|http)\//.test(file));
  const offenders = answering.filter(
    (file) => !file.startsWith('http/') && reads.test(readFileSync(join(src, file), 'utf8')),
  );
  expect(offenders).toEqual([]);
  expect(filesMatching(/\bexport function readRequest\b/)).toEqual(['http/read-request.ts']);
});

test('cli/ holds no replay logic: it reaches the replayer only through its entries (the HTTP and stdio replay, the pass-through) and the types of their options', () => {
  const entries = new Set([
    'replay/replay-server.ts',
    'replay/stdio-replay.ts',
    'replay/passthrough/index.ts',
    'replay/pacing.ts',
    'replay/replay-plan.ts',
    // The fault options replay --fault parses into (a type import only).
    'replay/replay-faults.ts',
  ]);
  const reached = sourceFiles(join(src, 'cli')).flatMap((file) =>
    specifiersOf(file)
      .map((to) => relative(src, to))
      .filter((to) => to.startsWith('replay/') && !entries.has(to))
      .map((to) => `${relative(src, file)} -> ${to}`),
  );
  expect(reached).toEqual([]);
  // The pass-through and the recording proxy are library functions: no file of cli/ builds a fallback or a proxy.
  expect(
    sourceFiles(join(src, 'cli'))
      .filter((file) =>
        /\bUnmatchedFallback\b|\bStdioFallback\b|\bstartProxySessions\(|\bstartRecordingProxy\(|\bstartStdioRecordingProxy\(/.test(
          readFileSync(file, 'utf8'),
        ),
      )
      .map((file) => relative(src, file)),
  ).toEqual([]);
});

test('one answering-era strategy: only http/ decides what an era answers (GET/DELETE, a missing method, an unknown session, Mcp-Param-* refusals, listen, a refusal written)', () => {
  // serve (server/) and replay (replay/, msw/) are peers under the strategy of http/answering-era.ts
  // and the per-request rules of http/per-request-side.ts: they say where an answer comes from
  // (the reference tools, the goldens), never which status, code or headers an era gives.
  const decides =
    /\bmethodNotFound\(|\bmethodNotAllowed\(|\bparamHeaderMismatch\(|\banswerListen\(|Session not found|\ballow: 'POST'|'no-cache(?:, no-transform)?'/;
  expect(filesMatching(decides).filter((file) => /^(?:server|replay|msw)\//.test(file))).toEqual([]);
  expect(filesMatching(/\bexport const answeringEra\b/)).toEqual(['http/answering-era.ts']);
  expect(filesMatching(/\bexport function answerPerRequest\b/)).toEqual(['http/per-request-side.ts']);
  // Both peers of the 2026-07-28 side go through the one per-request router.
  expect(filesMatching(/\banswerPerRequest\(/)).toEqual(['http/http-router.ts']);
});

test('one HTTP answering side: one front door and one router over the peers of serve and replay', () => {
  // Only the front door reads Origin, a body's size or Content-Type off a request serve or replay
  // answers; only the router reads an HTTP request (readRequest) and picks the era's side.
  const answering = (file: string): boolean => /^(?:server|replay|msw|http)\//.test(file);
  expect(filesMatching(/\bisAllowedOrigin\(/).filter(answering)).toEqual([
    'http/front-door.ts',
    'http/origin-policy.ts',
  ]);
  expect(
    filesMatching(/\bmediaTypeOf\(contentType\)|headers\[['"]content-length['"]\]|\bmaxBodyBytes \?\?/).filter(
      answering,
    ),
  ).toEqual(['http/front-door.ts']);
  expect(filesMatching(/\breadRequest\(\s*\{/).filter(answering)).toEqual(['http/http-router.ts']);
  // Both callers of the router supply only their peers.
  expect(filesMatching(/\brouteHttp\(/)).toEqual(['replay/http-replay.ts', 'server/http-server.ts']);
  expect(filesMatching(/\bnew SessionTable\b/)).toEqual(['replay/http-replay.ts', 'server/legacy-side.ts']);
});

test('one stdio answering side: serve --stdio and replay --stdio are peers of http/stdio-side.ts, which alone reads their lines and eras', () => {
  // The router reads each line, its era (readStdioMessage), refuses, dispatches and writes; the peers
  // say only where an answer comes from (the reference tools, the goldens). The stdio pass-through
  // reads the era of a first message only, to open its live server in that era.
  expect(filesMatching(/\bexport function serveStdioSide\b/)).toEqual(['http/stdio-side.ts']);
  expect(filesMatching(/\bserveStdioSide\(/)).toEqual([
    'http/stdio-side.ts',
    'replay/stdio-replay.ts',
    'server/stdio-server.ts',
  ]);
  expect(filesMatching(/\breadStdioMessage\(/)).toEqual([
    'http/read-request.ts',
    'http/stdio-side.ts',
    'replay/passthrough/stdio-passthrough.ts',
  ]);
  // No stdio answering side of its own: the SDK's stdio server transport reads no line here.
  expect(filesMatching(/@modelcontextprotocol\/(?:sdk\/)?server\/stdio/)).toEqual([]);
});
