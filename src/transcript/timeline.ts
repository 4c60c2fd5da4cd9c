import { counted } from './counted.js';
import { eraOf, type Frame, type Transcript } from './frame.js';
import { describeMessage, frameMessage, sseBlock } from './frame-content.js';
import { goldenNotes } from './golden-notes.js';
import { memberOf } from './json-object.js';
import {
  contentOf,
  isErrorResult,
  paramsOf,
  partialResultOf,
  requestProgressToken,
  resultContent,
  textOf,
} from './json-rpc.js';
import { readCalls } from './read-calls.js';

const ms = (us: number): string => `${(us / 1000).toFixed(1)} ms`;
const pad = (text: string, width: number): string => text.padStart(width);

/** Experimental partial results (closed proposal PR #383) carried by a progress notification. */
function partialLabel(partial: unknown): string {
  if (partial === undefined) return '';
  const content = contentOf(partial);
  if (!content) return ` · partial result (experimental): ${JSON.stringify(partial).slice(0, 80)}`;
  const texts = content.map((c) => {
    const text = textOf(c);
    return text === undefined ? '…' : JSON.stringify(text.slice(0, 40));
  });
  return ` · partial result (experimental): ${content.length} block${content.length === 1 ? '' : 's'} ${texts.join(' ')}`;
}

function frameLabel(frame: Frame): string {
  const message = frameMessage(frame);
  if (message) {
    const params = paramsOf(message);
    if (message.method === 'notifications/progress') {
      return `progress ${String(params.progress)}/${String(params.total ?? '?')} token=${JSON.stringify(params.progressToken)}${partialLabel(partialResultOf(message))}`;
    }
    if (message.method === 'tools/call') {
      const asked = requestProgressToken(message);
      const token = asked.present ? ` token=${JSON.stringify(asked.token)}` : '';
      return `tools/call ${String(params.name)} ${JSON.stringify(params.arguments ?? {})} id=${JSON.stringify(message.id)}${token}`;
    }
    if ('result' in message) {
      const content = resultContent(message);
      const blocks = content
        ? ` (${content.length} block${content.length === 1 ? '' : 's'}, ${content.reduce((n: number, c) => n + (textOf(c)?.length ?? 0), 0)} chars)`
        : '';
      const isError = isErrorResult(message) ? ' isError' : '';
      return `${describeMessage(message)}${blocks}${isError}`;
    }
    if ('error' in message) {
      const { error } = message;
      return `${describeMessage(message)} ${String(memberOf(error, 'code'))}: ${String(memberOf(error, 'message')).slice(0, 100)}`;
    }
    return describeMessage(message);
  }
  if (frame.channel === 'sse') {
    const block = sseBlock(frame);
    if (block && block.comments.length > 0 && block.data === undefined) return `comment :${block.comments.join(' :')}`;
    if (block?.data === '')
      return `priming event id=${block.id ?? ''}${block.retry !== undefined ? ` retry=${block.retry}` : ''}`;
    return 'sse event (no JSON-RPC message)';
  }
  return `${frame.channel} (${(frame.raw ?? frame.rawBase64 ?? '').length} chars)`;
}

/** Summary figures of a transcript, as printed at the end of the timeline. */
export interface TimelineStats {
  readonly frames: number;
  readonly exchanges: number;
  readonly progress: number;
  /** Gaps between consecutive progress notifications, in ms. */
  readonly progressGapsMs: readonly number[];
  /** Largest number of server messages (SSE events or stdio lines) completed by one read. */
  readonly maxEventsPerRead: number;
}

/** Computes the figures of {@link TimelineStats}. */
export function timelineStats(transcript: Transcript): TimelineStats {
  const progressTimes = transcript.frames
    .filter((f) => f.dir === 'server->client' && frameMessage(f)?.method === 'notifications/progress')
    .map((f) => f.t);
  let maxEventsPerRead = 0;
  let sinceRead = 0;
  for (const frame of transcript.frames) {
    if (frame.dir !== 'server->client') continue;
    if (frame.channel === 'read') sinceRead = 0;
    else if ((frame.channel === 'sse' || frame.channel === 'stdio') && frameMessage(frame)) {
      maxEventsPerRead = Math.max(maxEventsPerRead, ++sinceRead);
    }
  }
  return {
    frames: transcript.frames.length,
    exchanges: new Set(transcript.frames.map((f) => f.exchange)).size,
    progress: progressTimes.length,
    progressGapsMs: progressTimes.slice(1).map((t, i) => (t - (progressTimes[i] as number)) / 1000),
    maxEventsPerRead,
  };
}

/** Calls listed in the timeline's head when the header names none (a session useGolden or a proxy recorded). */
const CALLS_SHOWN = 5;

/** The calls of a session the header names no call for (a 2026-07-28 call's rounds are one): `calls: progress {"steps":3}, chatty {}`. */
function sessionCalls(transcript: Transcript): string {
  const calls = readCalls(transcript).calls.flatMap(({ request }) => {
    if (request?.method !== 'tools/call') return [];
    const params = paramsOf(request);
    return [`${String(params.name ?? '?')} ${JSON.stringify(params.arguments ?? {})}`];
  });
  if (calls.length === 0) return 'calls: none (a session without tools/call)';
  const more = calls.length > CALLS_SHOWN ? `, … and ${calls.length - CALLS_SHOWN} more` : '';
  return `calls: ${calls.slice(0, CALLS_SHOWN).join(', ')}${more}`;
}

/**
 * A human-readable timeline: one line per HTTP head, message and stream end, with its offset,
 * then summary figures. Reads are summarised, not listed.
 *
 * @example
 * console.log(formatTimeline(await readGolden('goldens/progress-10x100.jsonl')).join('\n'))
 */
export function formatTimeline(transcript: Transcript): string[] {
  const { header } = transcript;
  const notes = goldenNotes(header);
  const lines = [
    `${header.scenario ?? '(ad hoc)'} · ${header.format} · ${header.transport} · ${header.target} · protocol ${header.protocolVersion} (${eraOf(header)} era) · ${header.recorder}`,
    `${header.tool === undefined ? sessionCalls(transcript) : `call: ${header.tool} ${JSON.stringify(header.arguments ?? {})}`}${Object.keys(notes).length > 0 ? ` · ${JSON.stringify(notes)}` : ''}`,
  ];
  // The ignores and masks `verify` used for this golden, so a reader sees what is not compared.
  const volatile = notes.volatile;
  if (volatile !== undefined) {
    lines.push(
      `verified with: ignore ${JSON.stringify(volatile.ignore ?? [])} · mask ${JSON.stringify(volatile.mask ?? [])}`,
    );
  }
  lines.push('');
  for (const frame of transcript.frames) {
    if (frame.channel === 'read') continue;
    const arrow = frame.dir === 'client->server' ? '->' : '<-';
    let text: string;
    if (frame.channel === 'http') {
      text = frame.method
        ? `${frame.method} ${frame.url ?? ''}`
        : `HTTP ${frame.status} ${frame.headers?.['content-type'] ?? ''}`;
    } else if (frame.channel === 'end') {
      text = `end (${frame.reason}${frame.error ? `: ${frame.error}` : ''})`;
    } else if (frame.channel === 'close') {
      text = 'client closed the stream';
    } else {
      text = frameLabel(frame);
    }
    lines.push(`${pad(ms(frame.t), 12)}  #${String(frame.exchange).padEnd(3)} ${arrow} ${text}`);
  }
  const stats = timelineStats(transcript);
  const gaps = [...stats.progressGapsMs].sort((a, b) => a - b);
  const gapText =
    gaps.length > 0
      ? `; progress gaps min ${gaps[0]?.toFixed(1)} / median ${gaps[Math.floor(gaps.length / 2)]?.toFixed(1)} / max ${gaps.at(-1)?.toFixed(1)} ms`
      : '';
  lines.push(
    '',
    `${counted(stats.frames, 'frame')}, ${counted(stats.exchanges, 'exchange')}, ${counted(stats.progress, 'progress notification')}${gapText}; at most ${counted(stats.maxEventsPerRead, 'server message')} in one read`,
  );
  return lines;
}
