import { frameMessage } from '../transcript/frame-content.js';
import type { StreamEvent } from '../transcript/read-calls.js';
import { type LintView, progressValue } from './lint-view.js';
import type { LintViolation } from './lint-violation.js';
import { violation } from './lint-violation.js';
import { DEFAULT_TIMING, type TimingOptions } from './timing-rules.js';

const ORDERED_ID = /^(.*?)(\d+)$/;

/** The ids' common prefix and numbers when every id is `<same prefix><integer>`; `undefined` otherwise. */
function orderedIds(ids: readonly string[]): { prefix: string; numbers: number[] } | undefined {
  const parts = ids.map((id) => ORDERED_ID.exec(id));
  const prefix = parts[0]?.[1];
  if (ids.length === 0 || prefix === undefined || parts.some((p) => !p || p[1] !== prefix)) return undefined;
  return { prefix, numbers: parts.map((p) => Number(p?.[2])) };
}

const withId = (events: readonly StreamEvent[]): StreamEvent[] => events.filter((e) => e.eventId);

/**
 * `event-ids`: ids unique in the session (the same event delivered again after a reconnect is
 * a replay, judged by `resume-lossless`), and increasing per stream where the server's ids are
 * ordered (`<prefix><n>`; random ids such as UUIDs only need to be unique).
 */
export function checkEventIds(view: LintView): LintViolation[] {
  const out: LintViolation[] = [];
  const resumed = new Set(view.reconnects.map((r) => r.exchange));
  const seen = new Map<string, StreamEvent>();
  const flagged = new Set<StreamEvent>();
  for (const event of withId(view.events)) {
    const id = event.eventId as string;
    const earlier = seen.get(id);
    if (!earlier) {
      seen.set(id, event);
      continue;
    }
    const raw = (e: StreamEvent): string | undefined => view.transcript.frames[e.order]?.raw;
    const isReplay = resumed.has(event.exchange) && earlier.exchange !== event.exchange && raw(earlier) === raw(event);
    if (isReplay) continue;
    flagged.add(event);
    out.push(
      violation(
        view,
        'event-ids',
        { event },
        `event id ${JSON.stringify(id)} was already used for a different event (line ${earlier.order + 2})`,
        'an id not used before in this session',
        JSON.stringify(id),
      ),
    );
  }
  const byStream = new Map<number, StreamEvent[]>();
  for (const event of withId(view.events))
    byStream.set(event.exchange, [...(byStream.get(event.exchange) ?? []), event]);
  for (const events of byStream.values()) {
    const ordered = orderedIds(events.map((e) => e.eventId as string));
    if (!ordered || events.length < 2) continue;
    for (let i = 1; i < events.length; i++) {
      const event = events[i] as StreamEvent;
      const before = ordered.numbers[i - 1] as number;
      const now = ordered.numbers[i] as number;
      if (now > before || flagged.has(event)) continue;
      out.push(
        violation(
          view,
          'event-ids',
          { event },
          `event ids on this stream are ordered (${JSON.stringify(ordered.prefix)} + number) but went ${before} → ${now}`,
          `an id after ${JSON.stringify(`${ordered.prefix}${before}`)}`,
          JSON.stringify(event.eventId),
        ),
      );
    }
  }
  return out;
}

/**
 * `resume-lossless`: after a `Last-Event-ID` reconnect the resumed stream carries exactly what
 * the dropped stream had not delivered: nothing the client already had, no gap in the server's
 * own id sequence or progress steps, and the result if it had not arrived.
 */
export function checkResumeLossless(view: LintView): LintViolation[] {
  const out: LintViolation[] = [];
  for (const reconnect of view.reconnects) {
    const anchor = view.events.find((e) => e.eventId === reconnect.lastEventId);
    if (!anchor) continue;
    const before = view.events.filter((e) => e.exchange === anchor.exchange && e.order <= anchor.order);
    const after = view.events.filter((e) => e.exchange === reconnect.exchange && e.message);
    const problems: string[] = [];
    const had = new Set(before.map((e) => e.eventId).filter(Boolean));
    const repeated = after.filter((e) => e.eventId && had.has(e.eventId));
    if (repeated.length > 0) {
      problems.push(
        `${repeated.length} event${repeated.length === 1 ? '' : 's'} the client already had were sent again`,
      );
    }
    const ids = orderedIds(withId(before).map((e) => e.eventId as string));
    const firstNew = after.find((e) => e.eventId && !had.has(e.eventId));
    const next = firstNew?.eventId ? ORDERED_ID.exec(firstNew.eventId) : null;
    const contiguous =
      ids &&
      ids.numbers.length >= 2 &&
      ids.numbers.every((n, i) => i === 0 || n === (ids.numbers[i - 1] as number) + 1);
    if (ids && contiguous && next && next[1] === ids.prefix) {
      const gap = Number(next[2]) - (ids.numbers.at(-1) as number) - 1;
      if (gap > 0)
        problems.push(`the server's ids jump from ${reconnect.lastEventId} to ${firstNew?.eventId} (${gap} missing)`);
    }
    const call = view.calls.find((c) => c.exchange === anchor.exchange);
    if (call) {
      const values = call.progress.map(progressValue);
      const cut = call.progress.findIndex((p) => p.exchange === reconnect.exchange);
      if (cut > 0 && values.every((v) => typeof v === 'number')) {
        const steps = (values as number[]).slice(1).map((v, i) => v - (values[i] as number));
        const boundary = steps[cut - 1] as number;
        const others = steps.filter((_, i) => i !== cut - 1);
        const step = others[0];
        if (step !== undefined && step > 0 && others.every((s) => s === step) && boundary > step) {
          problems.push(
            `progress jumps ${String(values[cut - 1])} → ${String(values[cut])} across the reconnect while every other step is ${step} (${Math.round(boundary / step) - 1} missing)`,
          );
        }
      }
      if (!call.response && call.cancelAtMs === undefined) problems.push('the result never arrived');
    }
    if (problems.length === 0) continue;
    out.push(
      violation(
        view,
        'resume-lossless',
        { call, event: firstNew, order: reconnect.order },
        `after reconnecting with Last-Event-ID ${JSON.stringify(reconnect.lastEventId)}: ${problems.join('; ')}`,
        `exactly the events after ${JSON.stringify(reconnect.lastEventId)} on that stream`,
        problems.join('; '),
      ),
    );
  }
  return out;
}

/**
 * `x-accel-buffering` (modern era): every SSE response head carries `X-Accel-Buffering: no`, as
 * the 2026-07-28 revision asks, so a reverse proxy in front of the server streams instead of
 * buffering.
 */
export function checkAccelBuffering(view: LintView): LintViolation[] {
  const out: LintViolation[] = [];
  view.transcript.frames.forEach((frame, index) => {
    if (frame.channel !== 'http' || frame.dir !== 'server->client') return;
    const type = frame.headers?.['content-type'] ?? '';
    if (!type.toLowerCase().startsWith('text/event-stream')) return;
    const value = frame.headers?.['x-accel-buffering'];
    if (value?.trim().toLowerCase() === 'no') return;
    out.push(
      violation(
        view,
        'x-accel-buffering',
        { order: index },
        `the SSE response of exchange ${frame.exchange} has no \`X-Accel-Buffering: no\` header`,
        'X-Accel-Buffering: no',
        value === undefined ? 'no such header' : JSON.stringify(value),
      ),
    );
  });
  return out;
}

const isSseHead = (frame: { channel: string; dir: string; headers?: Readonly<Record<string, string>> | undefined }) =>
  frame.channel === 'http' &&
  frame.dir === 'server->client' &&
  (frame.headers?.['content-type'] ?? '').toLowerCase().startsWith('text/event-stream');

/**
 * `keep-alive` (modern era): from an SSE response's head until its end, the client's close, or the
 * end of the recording, nothing on that stream (event or `:` comment) is further apart than
 * `keepAliveMs`. One violation per stream, at its longest silence.
 */
export function checkKeepAlive(view: LintView, options: TimingOptions = {}): LintViolation[] {
  const { keepAliveMs } = { ...DEFAULT_TIMING, ...options };
  const frames = view.transcript.frames;
  const endT = frames.at(-1)?.t ?? 0;
  const out: LintViolation[] = [];
  frames.forEach((head, headIndex) => {
    if (!isSseHead(head)) return;
    const marks: { t: number; order: number }[] = [{ t: head.t, order: headIndex }];
    let stopped = false;
    for (let order = headIndex + 1; order < frames.length && !stopped; order++) {
      const frame = frames[order];
      if (!frame || frame.exchange !== head.exchange) continue;
      if (frame.channel === 'close' || frame.channel === 'end') stopped = true;
      else if (frame.dir !== 'server->client' || frame.channel === 'read') continue;
      marks.push({ t: frame.t, order });
    }
    if (!stopped) marks.push({ t: endT, order: frames.length - 1 });
    let longest = 0;
    let at = 0;
    for (let i = 1; i < marks.length; i++) {
      const gap = (marks[i] as (typeof marks)[number]).t - (marks[i - 1] as (typeof marks)[number]).t;
      if (gap > longest) {
        longest = gap;
        at = i;
      }
    }
    if (longest / 1000 <= keepAliveMs) return;
    const from = marks[at - 1] as (typeof marks)[number];
    const until = marks[at] as (typeof marks)[number];
    out.push(
      violation(
        view,
        'keep-alive',
        { order: until.order },
        `the SSE response of exchange ${head.exchange} was silent for ${(longest / 1000).toFixed(1)} ms (lines ${from.order + 2}-${until.order + 2}) with no \`:\` comment keep-alive`,
        `something on the stream (an event or a \`:\` comment) at least every ${keepAliveMs} ms (--keep-alive-ms)`,
        `${(longest / 1000).toFixed(1)} ms of silence`,
      ),
    );
  });
  return out;
}

const AFTER_CLOSE_METHODS = new Set(['notifications/progress', 'notifications/message']);

/**
 * `after-close` (modern era): once the client closed a request's response stream (its `close`
 * frame, how a 2026-07-28 client cancels over HTTP), the server sends no progress or log
 * notification for that request on it.
 */
export function checkAfterClose(view: LintView): LintViolation[] {
  const frames = view.transcript.frames;
  const out: LintViolation[] = [];
  frames.forEach((close, closeIndex) => {
    if (close.channel !== 'close') return;
    const call = view.calls.find((c) => c.exchange === close.exchange);
    for (let order = closeIndex + 1; order < frames.length; order++) {
      const frame = frames[order];
      if (!frame || frame.exchange !== close.exchange || frame.dir !== 'server->client') continue;
      const method = frameMessage(frame)?.method;
      if (typeof method !== 'string' || !AFTER_CLOSE_METHODS.has(method)) continue;
      out.push(
        violation(
          view,
          'after-close',
          { call, order },
          `${method} was sent ${((frame.t - close.t) / 1000).toFixed(1)} ms after the client closed the stream of exchange ${close.exchange} (line ${closeIndex + 2})`,
          'nothing more for a request whose stream the client closed',
          method,
        ),
      );
    }
  });
  return out;
}
