import { GoldenError } from '../errors.js';
import type { FrameSink } from './frame-sink.js';
import { openHttpSession } from './http-wire-session.js';
import { type FetchLike, recordingFetch } from './recording-fetch.js';
import { openStdioSession, type StdioCommand } from './stdio-wire-session.js';
import { httpTargetParts, stdioTargetSecrets, type TargetSecrets } from './target-secrets.js';
import type { WireSession } from './wire-session.js';

/**
 * What to record: an MCP endpoint URL (or anything with a `url`, such as a running reference
 * server), optionally with extra headers, or a command that serves MCP on stdio.
 */
export type RecordTarget =
  | string
  | URL
  | {
      readonly url: string;
      readonly headers?: Readonly<Record<string, string>>;
      /** How the target is named in the transcript header. @default the URL */
      readonly label?: string;
    }
  | StdioCommand;

/** A {@link RecordTarget} told apart: an HTTP endpoint (its URL, headers and label) or a stdio command. */
export type TargetKind =
  | {
      readonly kind: 'http';
      readonly url: string;
      readonly headers?: Readonly<Record<string, string>>;
      readonly label?: string;
    }
  | { readonly kind: 'stdio'; readonly command: StdioCommand };

/** The one place a {@link RecordTarget} is told apart: every other file switches on `kind`. */
export function targetKind(target: RecordTarget): TargetKind {
  if (typeof target === 'string' || target instanceof URL) return { kind: 'http', url: String(target) };
  if ('url' in target) {
    return {
      kind: 'http',
      url: target.url,
      ...(target.headers !== undefined && { headers: target.headers }),
      ...(target.label !== undefined && { label: target.label }),
    };
  }
  return { kind: 'stdio', command: target };
}

/** The target as a message quotes it: its label, else the URL or the command line. */
export function describeTarget(target: RecordTarget): string {
  const kind = targetKind(target);
  if (kind.kind === 'http') return `"${kind.label ?? kind.url}"`;
  return `"${kind.command.label ?? [kind.command.command, ...(kind.command.args ?? [])].join(' ')}"`;
}

/** The target with `headers` added to every request (HTTP only; a stdio target is unchanged). */
export function withTargetHeaders(target: RecordTarget, headers: Readonly<Record<string, string>>): RecordTarget {
  const kind = targetKind(target);
  if (kind.kind === 'stdio') return target;
  return {
    url: kind.url,
    headers: { ...kind.headers, ...headers },
    ...(kind.label !== undefined && { label: kind.label }),
  };
}

/** The secret values of a target and its label without them (URL userinfo and query, headers, stdio env). */
export function secretsOfTarget(target: RecordTarget): TargetSecrets & { readonly secretHeaders: readonly string[] } {
  const kind = targetKind(target);
  if (kind.kind === 'http') {
    const parts = httpTargetParts(kind.url, kind.headers);
    return { label: kind.label ?? parts.label, values: parts.values, secretHeaders: parts.secretHeaders };
  }
  const { command } = kind;
  const found = stdioTargetSecrets(command.command, command.args ?? [], command.env);
  return { label: command.label ?? found.label, values: found.values, secretHeaders: [] };
}

/** Options of {@link openTarget}. */
export interface OpenTargetOptions {
  /** Where every byte of the session is recorded. */
  readonly sink: FrameSink;
  /** The fetch the recording tap wraps. @default globalThis.fetch */
  readonly fetch?: FetchLike;
  /** Protocol version sent in `MCP-Protocol-Version` after initialize (HTTP). */
  readonly protocolVersion: string;
  /** Longest wait for any one message (HTTP). @default 30000 */
  readonly timeoutMs?: number;
}

/** A target opened as a wire session, recorded into the sink. */
export interface OpenedTarget {
  readonly session: WireSession;
  readonly transport: 'http' | 'stdio';
  /** The target's secrets and its label without them, for the transcript header and redaction. */
  readonly secrets: TargetSecrets;
  /** Header names whose values are redacted in frames (every header the user gave). */
  readonly secretHeaders: readonly string[];
}

/**
 * Opens `target` as a wire session recorded into `options.sink`: an HTTP endpoint (refused with the
 * fix unless it is an http:// or https:// URL) through a recording fetch, or a stdio command as a
 * child process whose both directions are recorded.
 */
export function openTarget(target: RecordTarget, options: OpenTargetOptions): OpenedTarget {
  const kind = targetKind(target);
  if (kind.kind === 'stdio') {
    const secrets = secretsOfTarget(target);
    const session = openStdioSession({ ...kind.command, label: secrets.label }, options.sink);
    return {
      session,
      transport: 'stdio',
      secrets,
      secretHeaders: [],
    };
  }
  if (!/^https?:\/\//.test(kind.url) || !URL.canParse(kind.url)) {
    throw new GoldenError(
      'E_TARGET',
      `Cannot record "${kind.url.replace(/[?#].*$/s, '')}": expected an http:// or https:// MCP endpoint URL, or a stdio command.`,
    );
  }
  const parts = httpTargetParts(kind.url, kind.headers);
  const session = openHttpSession(parts.url, {
    fetch: recordingFetch(options.sink, options.fetch),
    protocolVersion: options.protocolVersion,
    headers: parts.headers,
    label: parts.label,
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
  });
  return {
    session,
    transport: 'http',
    secrets: { label: kind.label ?? parts.label, values: parts.values },
    secretHeaders: parts.secretHeaders,
  };
}
