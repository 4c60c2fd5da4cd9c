import { GoldenError } from '../errors.js';
import type { Transcript } from '../transcript/frame.js';
import { type RedactOptions, SECRET_HEADERS } from '../transcript/redact.js';
import { startRecordingProxy } from './recording-proxy.js';
import { type StdioRecordingProxy, startStdioRecordingProxy } from './stdio-recording-proxy.js';
import type { StdioCommand } from './stdio-wire-session.js';
import { httpTargetParts, secretPatterns, stdioTargetSecrets } from './target-secrets.js';

/** What a recording proxy in front of an HTTP target needs: where to forward, its name in a golden, its secrets. */
export interface HttpProxyTarget {
  readonly upstream: string;
  /** The target as a golden's header names it (secrets replaced). */
  readonly label: string;
  readonly redact: RedactOptions;
}

/**
 * Reads the URL of the MCP server a recording proxy forwards to, with the secrets `record` keeps
 * out of a golden (query values, userinfo, credential headers). `given` names the value in the
 * error (`--target "…" for --proxy`) and `fix` says how to give a good one.
 */
export function httpProxyTarget(target: string, given: string, fix: string): HttpProxyTarget {
  if (!/^https?:\/\//.test(target) || !URL.canParse(target)) {
    throw new GoldenError(
      'E_USAGE',
      `Invalid ${given.replace('%s', target.replace(/[?#].*$/s, ''))}: expected the http:// URL of a running MCP server. ${fix}`,
    );
  }
  const parts = httpTargetParts(target);
  return {
    upstream: parts.url,
    label: parts.label,
    redact: { headers: [...SECRET_HEADERS, ...parts.secretHeaders], patterns: secretPatterns(parts.values) },
  };
}

/** A recording proxy in front of one HTTP target, for one client's use. */
export interface TargetRecording {
  /** Where the client connects. */
  readonly url: string;
  /** Stops the proxy (open streams end as `open`) and returns everything recorded, named by the target's label. */
  close(): Promise<Transcript>;
}

/**
 * Starts a recording proxy in front of the MCP server at `target` (see {@link httpProxyTarget}):
 * what `useGolden` records a client test through.
 *
 * @example
 * const recording = await startTargetRecording('http://127.0.0.1:3000/mcp')
 * // the client connects to recording.url ...
 * await writeGolden('goldens/client.jsonl', await recording.close())
 */
export async function startTargetRecording(
  target: string,
  given = 'target "%s"',
  fix = 'Start the server and pass its URL.',
): Promise<TargetRecording> {
  const { upstream, label, redact } = httpProxyTarget(target, given, fix);
  const proxy = await startRecordingProxy({ upstream, redact });
  return {
    url: proxy.url,
    async close() {
      const transcript = await proxy.close();
      return { ...transcript, header: { ...transcript.header, target: label } };
    },
  };
}

/**
 * Starts `server` and records one stdio session between it and a client that reads `output` and
 * writes `input` (a stdio tee), with the command's secrets (secret-named arguments and environment)
 * kept out of the golden and its label in the header. The proxy stands for the server: when the
 * session ends (the client closed `input`, or the server exited), `output` ends and `input` is no
 * longer read, so a client whose server exited sees its stdout end instead of waiting for an answer,
 * and a `record --proxy --stdio` process exits.
 */
export function startStdioTargetRecording(
  server: StdioCommand,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): StdioRecordingProxy {
  const secrets = stdioTargetSecrets(server.command, server.args ?? [], server.env);
  const proxy = startStdioRecordingProxy({
    server: { ...server, label: server.label ?? secrets.label },
    input,
    output,
    redact: { headers: [...SECRET_HEADERS], patterns: secretPatterns(secrets.values) },
  });
  void proxy.ended.then(() => {
    input.pause();
    output.end();
  });
  return proxy;
}
