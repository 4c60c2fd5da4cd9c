import { isAbsolute, join, relative } from 'node:path';
import { expect, onTestFinished, type TestContext } from 'vitest';
import { GoldenError } from '../errors.js';
import { joinStdioSessions } from '../record/join-stdio-sessions.js';
import type { StdioRecordingProxy } from '../record/stdio-recording-proxy.js';
import type { StdioCommand } from '../record/stdio-wire-session.js';
import { startStdioTargetRecording, startTargetRecording } from '../record/target-proxy.js';
import type { Pace } from '../replay/pacing.js';
import { createReplayServer } from '../replay/replay-server.js';
import { type StdioReplay, serveReplayStdio } from '../replay/stdio-replay.js';
import { GOLDEN_EXTENSION } from '../store/golden-file.js';
import { parseTranscript } from '../store/parse-golden.js';
import type { Transcript } from '../transcript/frame.js';
import { frameMessage } from '../transcript/frame-content.js';
import { serializeTranscript } from '../transcript/serialize.js';
import { getGoldenStore } from './active-golden-store.js';
import { callSite, claimGolden } from './golden-claims.js';
import { adjacentGoldenDir, resolveGoldenPath } from './golden-path.js';
import { startStdioEndpoint } from './stdio-endpoint.js';
import { resolveUpdateMode } from './update-mode.js';

/** The live MCP server a {@link useGolden} test records when its golden is missing. */
export type UseGoldenTarget =
  | { readonly target: string }
  | { readonly stdio: string | { readonly command: string; readonly args?: readonly string[] } };

/** Options of {@link useGolden}. */
export interface UseGoldenOptions {
  /** How a replay paces the recorded answers. @default 'recorded' */
  readonly pace?: Pace;
}

/** What {@link useGolden} started, and where it keeps the golden. */
export interface GoldenEndpoint {
  /** `replay`: the golden is served; `record`: the live target is recorded into the golden when the test ends. */
  readonly mode: 'record' | 'replay';
  /** The golden's path. */
  readonly path: string;
  /** Aborted when the test ends, as what `useGolden` started stops: for anything that must not outlive it. */
  readonly signal: AbortSignal;
}

/** An HTTP client connects to `url`. */
export interface HttpGoldenEndpoint extends GoldenEndpoint {
  readonly url: string;
  /**
   * In `replay` mode, the golden served at `url` and its pacing, so that it can be served in
   * process as well (`createGoldenHandlers` in `mcp-golden/msw`); absent in `record` mode.
   */
  readonly replaying?: { readonly golden: Transcript; readonly pace: Pace };
}

/** A stdio client starts `command` with `args` as its server. */
export interface StdioGoldenEndpoint extends GoldenEndpoint {
  readonly command: string;
  readonly args: string[];
}

function say(line: string): void {
  process.stderr.write(`[mcp-golden] ${line}\n`);
}

/** `name` beside the test file (`__goldens__/<test file>/<name>.jsonl`); a path as `toMatchGolden` takes it. */
function goldenPathOf(name: string, testPath: string, testName: string, root: string): string {
  if (isAbsolute(name) || name.startsWith('.') || name.includes('/'))
    return resolveGoldenPath(name, testPath, testName, root);
  return join(adjacentGoldenDir(testPath), name.endsWith(GOLDEN_EXTENSION) ? name : `${name}${GOLDEN_EXTENSION}`);
}

function stdioCommandOf(stdio: string | StdioCommand): StdioCommand {
  if (typeof stdio !== 'string') return stdio;
  const words = stdio.trim().split(/\s+/).filter(Boolean);
  if (words[0] === undefined || /["'\\]/.test(stdio)) {
    throw new GoldenError(
      'E_USAGE',
      `[mcp-golden] useGolden: invalid stdio command "${stdio}": expected words separated by spaces, got ${words.length === 0 ? 'nothing' : 'quotes or backslashes'}. Pass { stdio: { command: 'node', args: ['server.js'] } } instead.`,
    );
  }
  return { command: words[0], args: words.slice(1) };
}

/**
 * Writes what a test recorded, unless the test failed (a broken run is no golden) or the server
 * never answered (the test then fails: nothing was recorded).
 */
async function keep(context: TestContext, transcript: Transcript | undefined, path: string, root: string) {
  const shown = relative(root, path);
  if (context.task.result?.state === 'fail') {
    say(`golden ${shown} not written: the test failed while recording it`);
    return;
  }
  const answered = transcript?.frames.some(
    (f) => f.dir === 'server->client' && (f.channel === 'json' || f.channel === 'sse' || f.channel === 'stdio'),
  );
  if (transcript === undefined || !answered) {
    throw new GoldenError(
      'E_RECORD',
      `[mcp-golden] useGolden recorded nothing for ${shown}: ${transcript === undefined ? 'no client started the stdio command' : 'the server answered no request'}. Expected the test to drive a client at what useGolden returned. Connect the client to its url (or command and args) and call the server.`,
    );
  }
  await getGoldenStore().write(path, serializeTranscript(transcript));
  say(`recorded golden ${shown} (${transcript.frames.length} frames)`);
}

/** True for a session whose client asked only for the protocol version (`server/discover`). */
function onlyAsksVersion(session: Transcript): boolean {
  const methods = session.frames
    .filter((f) => f.dir === 'client->server')
    .map((f) => frameMessage(f)?.method)
    .filter((method) => method !== undefined);
  return methods.every((method) => method === 'server/discover');
}

/** What useGolden resolves to, with the signal aborted when the test ends (before what it started stops). */
function endpointBase(mode: GoldenEndpoint['mode'], path: string): GoldenEndpoint & { end(): void } {
  const ended = new AbortController();
  return { mode, path, signal: ended.signal, end: () => ended.abort() };
}

async function replay(
  golden: Transcript,
  target: UseGoldenTarget,
  { end, ...base }: ReturnType<typeof endpointBase>,
  options: UseGoldenOptions,
) {
  const pace = options.pace !== undefined ? { pace: options.pace } : {};
  if ('target' in target) {
    const server = await createReplayServer(golden, pace);
    onTestFinished(async () => {
      end();
      await server.close();
    });
    return { ...base, url: server.url, replaying: { golden, pace: options.pace ?? 'recorded' } };
  }
  const replays: StdioReplay[] = [];
  const endpoint = await startStdioEndpoint((socket) => {
    replays.push(serveReplayStdio([golden], { ...pace, stdin: socket, stdout: socket }));
  });
  onTestFinished(async () => {
    end();
    for (const running of replays) running.close();
    await endpoint.close();
  });
  return { ...base, command: endpoint.command, args: endpoint.args };
}

async function record(target: UseGoldenTarget, { end, ...base }: ReturnType<typeof endpointBase>, root: string) {
  if ('target' in target) {
    const recording = await startTargetRecording(
      target.target,
      'useGolden target "%s"',
      'Pass the URL of the running server to record, e.g. { target: "http://127.0.0.1:3000/mcp" }.',
    );
    onTestFinished(async (context) => {
      end();
      await keep(context, await recording.close(), base.path, root);
    });
    return { ...base, url: recording.url };
  }
  const server = stdioCommandOf(target.stdio);
  // Each process the client starts is a session; the SDK v2 client starts one only to ask the version.
  const sessions: StdioRecordingProxy[] = [];
  const endpoint = await startStdioEndpoint((socket) => {
    const session = startStdioTargetRecording(server, socket, socket);
    sessions.push(session);
    // Said at once too: the client may wait or retry before the test ends.
    void session.ended.then(() => {
      const why = session.serverExit();
      if (why !== undefined) say(`useGolden's stdio server stopped serving: ${why}`);
    });
  });
  onTestFinished(async (context) => {
    end();
    const recorded = await Promise.all(sessions.map((session) => session.stop()));
    await endpoint.close();
    serverFailure(sessions, recorded, relative(root, base.path));
    const kept = recorded.filter((session) => !onlyAsksVersion(session));
    if (kept.length > 1 && context.task.result?.state !== 'fail') {
      throw new GoldenError(
        'E_RECORD',
        `[mcp-golden] useGolden records one stdio session per golden: the client started the command for ${kept.length} sessions in this test. Call useGolden once for each client, with a name of its own.`,
      );
    }
    await keep(context, recorded.length > 0 ? joinStdioSessions(recorded) : undefined, base.path, root);
  });
  return { ...base, command: endpoint.command, args: endpoint.args };
}

/**
 * Fails the test naming the first stdio server that ended its session itself (it exited, or could
 * not start, while its client was connected): the client only saw its connection close.
 */
function serverFailure(sessions: readonly StdioRecordingProxy[], recorded: readonly Transcript[], shown: string) {
  for (const [index, session] of sessions.entries()) {
    const why = session.serverExit();
    if (why === undefined) continue;
    throw new GoldenError(
      'E_TARGET',
      `[mcp-golden] useGolden could not record ${shown}: the stdio server "${recorded[index]?.header.target ?? '?'}" stopped serving: ${why}. Expected it to serve until the client closed it (the client saw only its connection close). Run the command by hand to see why, then fix it in { stdio }.`,
    );
  }
}

/**
 * Record-or-replay for a client test, called inside a test: when the golden `name` exists, a
 * replay of it is started; when it does not, a recording proxy in front of the live `target` is,
 * and the golden is written when the test ends (not when it fails). In CI (`CI` set) a missing
 * golden fails the test and nothing is recorded; `vitest -u` records again. Resolves to what the
 * client connects to: `{ url }` for `{ target: URL }`, `{ command, args }` (a process to start)
 * for `{ stdio: CMD }`; for msw, pass the HTTP endpoint to `createGoldenHandlers` of
 * `mcp-golden/msw`. A bare name is kept beside the test file, in
 * `__goldens__/<test file>/<name>.jsonl`; a path (`./x`, `dir/x`, absolute) as `toMatchGolden`
 * takes it. Everything started stops when the test ends.
 *
 * @example
 * test('lists the tools', async () => {
 *   const { url } = await useGolden('tools', { target: 'http://127.0.0.1:3000/mcp' })
 *   const client = new Client({ name: 'my-client', version: '1.0.0' })
 *   await client.connect(new StreamableHTTPClientTransport(new URL(url)))
 *   expect((await client.listTools()).tools.map((t) => t.name)).toContain('echo')
 *   await client.close()
 * })
 */
export async function useGolden(
  name: string,
  target: { readonly target: string },
  options?: UseGoldenOptions,
): Promise<HttpGoldenEndpoint>;
export async function useGolden(
  name: string,
  target: { readonly stdio: string | { readonly command: string; readonly args?: readonly string[] } },
  options?: UseGoldenOptions,
): Promise<StdioGoldenEndpoint>;
export async function useGolden(
  name: string,
  target: UseGoldenTarget,
  options: UseGoldenOptions = {},
): Promise<HttpGoldenEndpoint | StdioGoldenEndpoint> {
  const state = expect.getState();
  const { testPath, currentTestName: testName } = state;
  if (testPath === undefined || testName === undefined) {
    throw new GoldenError(
      'E_USAGE',
      `[mcp-golden] useGolden("${name}") was called outside a test. Expected a call inside test(...), where it can stop what it starts when the test ends; move it into the test.`,
    );
  }
  if (typeof name !== 'string' || name.trim() === '' || !(typeof target === 'object' && target !== null)) {
    throw new GoldenError(
      'E_USAGE',
      `[mcp-golden] useGolden expects a golden name and { target: URL } or { stdio: CMD }, got ${JSON.stringify(name)} and ${JSON.stringify(target)}. For example: useGolden('tools', { target: 'http://127.0.0.1:3000/mcp' }).`,
    );
  }
  if ('target' in target && !(typeof target.target === 'string' && /^https?:\/\/[^/]/i.test(target.target))) {
    throw new GoldenError(
      'E_USAGE',
      `[mcp-golden] useGolden("${name}"): invalid target ${JSON.stringify(target.target)}: expected the http:// URL of a running MCP server, e.g. { target: 'http://127.0.0.1:3000/mcp' }.`,
    );
  }
  const root = process.cwd();
  const path = goldenPathOf(name, testPath, testName, root);
  const shown = relative(root, path);
  const site = callSite(testPath, root);
  const earlier = claimGolden(testPath, testName, path, site);
  if (earlier !== undefined) {
    throw new GoldenError(
      'E_USAGE',
      `[mcp-golden] test "${testName}" uses golden "${shown}" twice: at ${earlier} and at ${site}. Give each useGolden call in a test its own name.`,
    );
  }
  const mode = resolveUpdateMode(state);
  const rewrite = `npx vitest run ${relative(root, testPath)} -u`;
  const stored = mode === 'all' ? undefined : await getGoldenStore().read(path);
  if (stored !== undefined) {
    const golden = parseTranscript(stored, { source: shown, regenerate: rewrite });
    return replay(golden, target, endpointBase('replay', path), options);
  }
  if (mode === 'none') {
    throw new GoldenError(
      'E_GOLDEN_MISSING',
      `[mcp-golden] golden "${shown}" is missing, and goldens are not recorded in CI. Expected it beside the test, committed. Run \`${rewrite}\` locally with the server up, and commit ${shown}.`,
    );
  }
  return record(target, endpointBase('record', path), root);
}
