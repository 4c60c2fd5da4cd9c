import { isErrorResult, progressOf } from '../transcript/json-rpc.js';
import { type LintView, progressValue, totalValue } from './lint-view.js';
import type { LintViolation } from './lint-violation.js';
import { violation } from './lint-violation.js';

const show = (value: unknown): string =>
  value === undefined ? 'no value' : `${JSON.stringify(value)} (${value === null ? 'null' : typeof value})`;

/** `token-echo` and `no-token-no-progress`: every notification belongs to a request that sent its token. */
export function checkTokens(view: LintView): LintViolation[] {
  const out: LintViolation[] = [];
  for (const { arrival: event, call } of view.stray) {
    const token = progressOf(event.message)?.progressToken;
    const tokenCall = view.calls.filter((c) => c.hasToken && c.t <= event.t).at(-1);
    if (tokenCall && (!call || call.hasToken || call === tokenCall)) {
      out.push(
        violation(
          view,
          'token-echo',
          { call: tokenCall, event },
          'a progress notification carried a token the request did not send',
          `progressToken ${show(tokenCall.token)}`,
          show(token),
        ),
      );
    } else {
      out.push(
        violation(
          view,
          'no-token-no-progress',
          { call, event },
          'a progress notification arrived although no request carried a progress token',
          'no notifications/progress (the request had no _meta.progressToken)',
          `notifications/progress with token ${show(token)}`,
        ),
      );
    }
  }
  return out;
}

/** `monotonic`: progress strictly increases within each call. */
export function checkMonotonic(view: LintView): LintViolation[] {
  const out: LintViolation[] = [];
  for (const call of view.calls) {
    call.progress.forEach((event, i) => {
      const now = progressValue(event);
      if (typeof now !== 'number' || !Number.isFinite(now)) {
        out.push(
          violation(view, 'monotonic', { call, event }, 'progress is not a number', 'a finite number', show(now)),
        );
        return;
      }
      const before = i > 0 ? progressValue(call.progress[i - 1] as (typeof call.progress)[number]) : undefined;
      if (typeof before === 'number' && !(now > before)) {
        out.push(
          violation(
            view,
            'monotonic',
            { call, event },
            `progress went ${before} → ${now} at notification ${i + 1} of ${call.progress.length}`,
            `progress > ${before}`,
            String(now),
          ),
        );
      }
    });
  }
  return out;
}

/** `total-constant`: the total never changes once given. */
export function checkTotalConstant(view: LintView): LintViolation[] {
  const out: LintViolation[] = [];
  for (const call of view.calls) {
    let first: unknown;
    for (const event of call.progress) {
      const total = totalValue(event);
      if (total === undefined) continue;
      if (first === undefined) first = total;
      else if (total !== first) {
        out.push(
          violation(
            view,
            'total-constant',
            { call, event },
            `total changed from ${JSON.stringify(first)} to ${JSON.stringify(total)}`,
            `total ${JSON.stringify(first)}`,
            `total ${JSON.stringify(total)}`,
          ),
        );
        first = total;
      }
    }
  }
  return out;
}

/** `final-progress`: a call that reported a total ends with progress == total before its result (or error). */
export function checkFinalProgress(view: LintView): LintViolation[] {
  const out: LintViolation[] = [];
  for (const call of view.calls) {
    const response = call.response;
    if (!response || call.cancelAtMs !== undefined) continue;
    const before = call.progress.filter((p) => p.order < response.order);
    const last = before.at(-1);
    if (!last || !call.progress.some((p) => totalValue(p) !== undefined)) continue;
    const total = totalValue(last) ?? call.progress.map(totalValue).findLast((t) => t !== undefined);
    if (progressValue(last) === total) continue;
    const kind =
      'error' in (response.message ?? {})
        ? 'an error'
        : isErrorResult(response.message)
          ? 'an isError result'
          : 'the result';
    out.push(
      violation(
        view,
        'final-progress',
        { call, event: response },
        `the last notification before ${kind} was ${String(progressValue(last))}/${String(total)}`,
        `a final notification with progress == total (${String(total)}) before ${kind}`,
        `progress ${String(progressValue(last))} (line ${last.order + 2})`,
      ),
    );
  }
  return out;
}

/** `after-result`: nothing for a call after its result. */
export function checkAfterResult(view: LintView): LintViolation[] {
  const out: LintViolation[] = [];
  for (const call of view.calls) {
    const response = call.response;
    if (!response) continue;
    const late = call.progress.filter((p) => p.order > response.order);
    for (const event of late) {
      out.push(
        violation(
          view,
          'after-result',
          { call, event },
          `progress ${String(progressValue(event))} arrived ${((event.t - response.t) / 1000).toFixed(1)} ms after the result (line ${response.order + 2})`,
          'no progress after the result',
          `${late.length} notification${late.length === 1 ? '' : 's'} after it`,
        ),
      );
    }
  }
  return out;
}
