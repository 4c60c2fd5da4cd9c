import type { StreamEvent } from '../transcript/read-calls.js';
import { type LintView, progressValue } from './lint-view.js';
import type { LintViolation } from './lint-violation.js';
import { violation } from './lint-violation.js';

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
