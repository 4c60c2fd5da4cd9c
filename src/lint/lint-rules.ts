/** Stable ids of the progress-contract rules (users grep for these). */
export type LintRuleId =
  | 'token-echo'
  | 'no-token-no-progress'
  | 'monotonic'
  | 'total-constant'
  | 'final-progress'
  | 'after-result'
  | 'rate'
  | 'heartbeat'
  | 'event-ids'
  | 'resume-lossless'
  | 'partial-results'
  | 'x-accel-buffering'
  | 'keep-alive'
  | 'after-close';

/** Where a rule comes from: the MCP specification's MUST/SHOULD, or widely given practical guidance. */
export type LintRuleSource = 'spec MUST' | 'spec SHOULD' | 'guidance' | 'experimental';

/** What a rule checks, where it comes from, and how to fix a violation. */
export interface LintRuleInfo {
  readonly id: LintRuleId;
  readonly source: LintRuleSource;
  /** The rule in one sentence. */
  readonly summary: string;
  /** Where the rule is written down. */
  readonly reference: string;
  /** What a server author changes to follow it. */
  readonly fix: string;
}

const PROGRESS_SPEC = 'MCP spec 2025-11-25, basic/utilities/progress';
const TRANSPORT_SPEC = 'MCP spec 2025-11-25, basic/transports (Resumability and Redelivery)';

/** Every rule, in the order violations are listed. */
export const LINT_RULES: readonly LintRuleInfo[] = [
  {
    id: 'token-echo',
    source: 'spec MUST',
    summary: 'progress notifications carry the request’s progress token verbatim, same value and JSON type',
    reference: `${PROGRESS_SPEC}: notifications MUST only reference tokens provided in an active request`,
    fix: 'send `progressToken: request.params._meta.progressToken` unchanged (do not convert "7" to 7 or back)',
  },
  {
    id: 'no-token-no-progress',
    source: 'spec MUST',
    summary: 'no progress notification for a request that carried no progress token',
    reference: `${PROGRESS_SPEC}: notifications MUST only reference tokens provided in an active request`,
    fix: 'send progress only when `_meta.progressToken` is present; otherwise stay silent until the result',
  },
  {
    id: 'monotonic',
    source: 'spec MUST',
    summary: 'the progress value increases with every notification, even when the total is unknown',
    reference: `${PROGRESS_SPEC}: the progress value MUST increase with each notification`,
    fix: 'report work done so far as a strictly increasing number; skip a notification rather than repeat a value',
  },
  {
    id: 'total-constant',
    source: 'guidance',
    summary: 'once a total is given it stays the same for the whole call',
    reference: 'progress guidance: a changing total makes the client’s progress bar jump backwards',
    fix: 'send the same `total` in every notification, or omit it (indeterminate progress) until it is known',
  },
  {
    id: 'final-progress',
    source: 'guidance',
    summary: 'a final notification with progress == total precedes the result, on success and on isError',
    reference: 'progress guidance: the final notification resolves the client’s progress bar, also on the error path',
    fix: 'before returning (also before an `isError: true` result), send `{progress: total, total}` once',
  },
  {
    id: 'after-result',
    source: 'spec MUST',
    summary: 'no progress notification after the call’s result',
    reference: `${PROGRESS_SPEC}: progress notifications MUST stop after completion`,
    fix: 'await every progress send before returning the result; do not report from background work afterwards',
  },
  {
    id: 'rate',
    source: 'spec SHOULD',
    summary: 'progress is rate-limited: no sustained bursts faster than one notification per min interval',
    reference: `${PROGRESS_SPEC}: senders SHOULD implement rate limiting (guidance: about one per 500 ms, one per step)`,
    fix: 'throttle notifications in tight loops (e.g. at most one per 500 ms), or report once per stage',
  },
  {
    id: 'heartbeat',
    source: 'guidance',
    summary: 'while a call with a progress token is open, the server is never silent for longer than the limit',
    reference: 'progress guidance: long single operations send a heartbeat about every 5 s',
    fix: 'during long steps send a notification (same progress value is not allowed: add a fraction) every ~5 s',
  },
  {
    id: 'event-ids',
    source: 'spec MUST',
    summary: 'SSE event ids are unique in the session, and increasing per stream where the server’s ids are ordered',
    reference: `${TRANSPORT_SPEC}: event ids MUST be globally unique across all streams of the session`,
    fix: 'derive ids from a per-session counter (e.g. `<stream>-<n>`) or use random UUIDs; never reuse an id',
  },
  {
    id: 'resume-lossless',
    source: 'guidance',
    summary:
      'after a Last-Event-ID reconnect the server replays exactly the missed events of that stream: none lost, none repeated',
    reference: `${TRANSPORT_SPEC}: the server MAY replay what would have followed on that stream (guidance: keep a replay buffer keyed by event id)`,
    fix: 'store every event before sending it and replay all events after the Last-Event-ID of the same stream',
  },
  {
    id: 'x-accel-buffering',
    source: 'spec SHOULD',
    summary: 'modern era (2026-07-28): every SSE response carries `X-Accel-Buffering: no`',
    reference:
      'MCP spec 2026-07-28, basic/transports (Streamable HTTP): servers SHOULD send `X-Accel-Buffering: no` so reverse proxies do not buffer the stream',
    fix: 'set the response header `X-Accel-Buffering: no` on every `text/event-stream` response',
  },
  {
    id: 'keep-alive',
    source: 'guidance',
    summary:
      'modern era (2026-07-28): an SSE response is never silent for longer than the keep-alive bound (default 20000 ms) without a `:` comment',
    reference:
      'MCP spec 2026-07-28, basic/transports (Streamable HTTP, the note after X-Accel-Buffering): SSE `:` comment keep-alives are encouraged so proxies do not time out an idle stream; the SDK v2 sends `: keepalive` every 15000 ms by default (`keepAliveMs`)',
    fix: 'write an SSE comment (`: keepalive`) on every open stream at least every 15 s (SDK v2: leave `keepAliveMs` at its default, do not set it to 0)',
  },
  {
    id: 'after-close',
    source: 'spec MUST',
    summary:
      'modern era (2026-07-28): no progress or log notification for a request after the client closed its stream',
    reference:
      'MCP spec 2026-07-28, basic/transports (Streamable HTTP, Cancellation): the server MUST treat a client disconnect as cancellation and MUST NOT send further messages for that request',
    fix: 'stop the handler when the request is aborted (SDK v2: check `ctx.mcpReq.signal`) and send nothing more for it',
  },
  {
    id: 'partial-results',
    source: 'experimental',
    summary:
      'experimental (closed proposal PR #383): partial results in progress notifications concatenate to a non-empty final result',
    reference: 'modelcontextprotocol PR #383 (closed, prior art): `partialResult` in notifications/progress',
    fix: 'return an empty final result after streaming partial results, or make the final content their exact concatenation',
  },
];

/** The rule called `id`. */
export function lintRule(id: LintRuleId): LintRuleInfo {
  return LINT_RULES.find((rule) => rule.id === id) as LintRuleInfo;
}

/** Whether `value` is a known rule id. */
export function isLintRuleId(value: unknown): value is LintRuleId {
  return LINT_RULES.some((rule) => rule.id === value);
}
