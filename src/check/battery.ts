import { describeError, isGoldenError } from '../errors.js';
import { callView } from '../invariants/call-view.js';
import {
  checkBlocks,
  checkProgressTokens,
  checkStreaming,
  checkUnicode,
  type InvariantResult,
} from '../invariants/invariants.js';
import { type Recording, type RecordTarget, recordCall } from '../record/record-call.js';
import type { Scenario } from '../record/scenario.js';
import type { AuditEntry } from '../server/audit-log.js';
import { frameMessage, sseBlock } from '../transcript/frame-content.js';

/** pass, fail, or not applicable to this gateway or transport. */
export type Verdict = 'pass' | 'fail' | 'n/a';

/** One call drawn on the timeline: when the upstream sent, when the client received. */
export interface TimelineCall {
  readonly label: string;
  /** Epoch ms of each progress notification the upstream sent. */
  readonly upstreamSentMs: readonly number[];
  /** Epoch ms of each progress notification the client received. */
  readonly clientReceivedMs: readonly number[];
  /** Epoch ms the client received the result, if it did. */
  readonly clientResultMs?: number;
}

/** One row of the verdict table. */
export interface PropertyResult {
  readonly property: string;
  readonly verdict: Verdict;
  /** Why, in numbers. */
  readonly evidence: string;
  readonly numbers: Readonly<Record<string, number | string | boolean>>;
  readonly calls: readonly TimelineCall[];
}

/** What the battery needs: where to send calls, and how to reach the upstream directly. */
export interface BatteryContext {
  /** The gateway, as the client sees it. */
  readonly gateway: RecordTarget;
  /** The upstream itself, for reference recordings. */
  readonly direct: RecordTarget;
  readonly clientTransport: 'http' | 'stdio';
  /** The upstream's audit log: read in process, or over the wire through the gateway (`audit_log`). */
  readonly audit: () => Promise<AuditEntry[]>;
  /** Longest wait for any one message. */
  readonly timeoutMs: number;
}

/** One property of the battery. */
export interface BatteryProperty {
  readonly name: string;
  run(context: BatteryContext): Promise<PropertyResult>;
}

function timeline(label: string, recording: Recording, audit?: AuditEntry): TimelineCall {
  const view = callView(recording);
  const call = recording.frames.find((f) => f.dir === 'client->server' && frameMessage(f)?.method === 'tools/call');
  // callView measures from the first frame of the call's exchange: anchor it on the wall clock.
  const head = call ? (recording.frames.find((f) => f.exchange === call.exchange)?.t ?? call.t) : 0;
  const offset = recording.originEpochMs + head / 1000;
  return {
    label,
    upstreamSentMs: audit ? audit.notifications.map((n) => audit.startedAtEpochMs + n.sentAtMs) : [],
    clientReceivedMs: view.progress.map((p) => offset + p.atMs),
    ...(view.response && { clientResultMs: offset + view.response.atMs }),
  };
}

function fromInvariant(property: string, result: InvariantResult, calls: TimelineCall[]): PropertyResult {
  return {
    property,
    verdict: result.pass ? 'pass' : 'fail',
    evidence: result.message,
    numbers: result.evidence,
    calls,
  };
}

function failed(property: string, error: unknown): PropertyResult {
  // Keep the cause (ECONNRESET, EPIPE, the timeout): "fetch failed" alone says nothing.
  const text = describeError(error);
  const why = isGoldenError(error, 'E_TIMEOUT') ? `the gateway did not answer in time: ${text}` : text;
  return { property, verdict: 'fail', evidence: why.split('\n')[0] ?? why, numbers: {}, calls: [] };
}

/** Records `scenario` directly (reference) and through the gateway, then judges the pair. */
async function pair(
  context: BatteryContext,
  scenario: Scenario,
): Promise<{ received: Recording; reference: Recording }> {
  const timed = { ...scenario, timeoutMs: context.timeoutMs };
  const reference = await recordCall(context.direct, timed);
  const received = await recordCall(context.gateway, timed);
  return { received, reference };
}

async function auditFor(context: BatteryContext, token: unknown): Promise<AuditEntry | undefined> {
  const entries = await context.audit().catch(() => [] as AuditEntry[]);
  return entries.filter((e) => e.progressToken === token).at(-1);
}

function property(name: string, run: (context: BatteryContext) => Promise<PropertyResult>): BatteryProperty {
  return {
    name,
    run: (context) => run(context).catch((error: unknown) => failed(name, error)),
  };
}

const tokenProperty = (name: string, tokens: readonly (string | number)[]): BatteryProperty =>
  property(name, async (context) => {
    const calls: TimelineCall[] = [];
    let last: InvariantResult | undefined;
    for (const token of tokens) {
      const { received, reference } = await pair(context, {
        tool: 'progress',
        arguments: { steps: 5, step_ms: 20 },
        progressToken: token,
      });
      const upstream = await auditFor(context, token);
      calls.push(timeline(`token ${JSON.stringify(token)}`, received, upstream));
      last = checkProgressTokens(received, reference);
      if (!last.pass) {
        // Say which leg broke: did the token reach the upstream, and did the upstream send progress?
        const seen = upstream
          ? `; the upstream received token ${JSON.stringify(upstream.progressToken)} (${upstream.progressTokenType}) and sent ${upstream.notifications.length} notifications`
          : '';
        return fromInvariant(name, { ...last, message: `${last.message}${seen}` }, calls);
      }
    }
    return fromInvariant(name, last as InvariantResult, calls);
  });

const spacingProperty = (name: string, steps: number, stepMs: number): BatteryProperty =>
  property(name, async (context) => {
    const token = `spacing-${stepMs}`;
    const { received, reference } = await pair(context, {
      tool: 'progress',
      arguments: { steps, step_ms: stepMs },
      progressToken: token,
    });
    return fromInvariant(name, checkStreaming(received, reference), [
      timeline(`${steps} x ${stepMs} ms`, received, await auditFor(context, token)),
    ]);
  });

const cancellation = property('cancellation reaches the upstream, nothing after it', async (context) => {
  const name = 'cancellation reaches the upstream, nothing after it';
  const token = 'check-cancel';
  const received = await recordCall(context.gateway, {
    tool: 'progress',
    arguments: { steps: 10, step_ms: 100 },
    progressToken: token,
    cancelAfter: 3,
    timeoutMs: context.timeoutMs,
  });
  const calls = [timeline('cancel after 3', received, await auditFor(context, token))];
  const view = callView(received);
  if (view.cancelAtMs === undefined) {
    return {
      property: name,
      verdict: 'n/a',
      evidence: `the client received ${view.progress.length} progress notifications, never the 3rd, so no cancellation was sent (see the progress rows)`,
      numbers: { notifications: view.progress.length },
      calls,
    };
  }
  const cancelAt = view.cancelAtMs;
  const afterCancel = view.progress.filter((p) => p.atMs > cancelAt + 1).length;
  const third = view.progress[2];
  if (third && view.response && view.response.read === third.read) {
    return {
      property: name,
      verdict: 'n/a',
      evidence: `progress 3 arrived in the same read as the result (${view.response.atMs.toFixed(0)} ms into the call): the stream was held back, so no cancellation could be sent while the call ran`,
      numbers: { readsOnCall: view.reads },
      calls,
    };
  }
  if (afterCancel > 0 || received.outcome.response) {
    return {
      property: name,
      verdict: 'fail',
      evidence: `after the cancellation the client still received ${afterCancel} progress notifications${received.outcome.response ? ' and the result' : ''}`,
      numbers: { afterCancel, result: received.outcome.response !== undefined },
      calls,
    };
  }
  const deadline = Date.now() + 2000;
  let row = await auditFor(context, token);
  while (row && !row.cancelled && row.outcome === 'running' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    row = await auditFor(context, token);
  }
  if (!row) {
    return {
      property: name,
      verdict: 'n/a',
      evidence:
        'the client saw nothing after the cancel; the upstream audit log has no row for the call (the gateway may run one upstream per session), so whether the cancel reached it is unknown',
      numbers: {},
      calls,
    };
  }
  const numbers = {
    stepsCompleted: row.stepsCompleted,
    cancelled: row.cancelled,
    notificationsSent: row.notifications.length,
  };
  if (!row.cancelled) {
    return {
      property: name,
      verdict: 'fail',
      evidence: `the upstream never received notifications/cancelled: it ran ${row.stepsCompleted} of 10 steps (outcome ${row.outcome})`,
      numbers,
      calls,
    };
  }
  return {
    property: name,
    verdict: 'pass',
    evidence: `upstream cancelled after ${row.stepsCompleted} steps, ${row.cancelledAtMs?.toFixed(0)} ms into the call; the client received nothing after the cancel`,
    numbers,
    calls,
  };
});

const resume = property('Last-Event-ID resume', async (context) => {
  const name = 'Last-Event-ID resume';
  if (context.clientTransport !== 'http') {
    return { property: name, verdict: 'n/a', evidence: 'stdio has no Last-Event-ID', numbers: {}, calls: [] };
  }
  const probe = await recordCall(context.gateway, {
    tool: 'progress',
    arguments: { steps: 1, step_ms: 1 },
    progressToken: 'probe',
    timeoutMs: context.timeoutMs,
  });
  if (!probe.frames.some((f) => f.channel === 'sse' && sseBlock(f)?.id)) {
    return {
      property: name,
      verdict: 'n/a',
      evidence: 'the gateway sends no SSE event ids, so it offers no resumption',
      numbers: {},
      calls: [],
    };
  }
  const received = await recordCall(context.gateway, {
    tool: 'progress',
    arguments: { steps: 6, step_ms: 100 },
    progressToken: 'check-resume',
    dropAfter: 2,
    timeoutMs: context.timeoutMs,
  });
  const progress = received.outcome.progress.map((m) => (m.params as { progress?: unknown }).progress);
  const numbers = { notifications: progress.length, result: received.outcome.response !== undefined };
  const calls = [timeline('drop after 2, resume', received, await auditFor(context, 'check-resume'))];
  // Every event exactly once: progress 1, 2, 3... with no repeat and no hole, then the result. How
  // many arrive is the tokens property's concern.
  const ok = progress.length >= 3 && progress.every((p, i) => p === i + 1) && received.outcome.response !== undefined;
  return {
    property: name,
    verdict: ok ? 'pass' : 'fail',
    evidence: ok
      ? `dropped after progress 2, resumed: progress 3-${progress.length} and the result arrived exactly once`
      : `after resuming, progress arrived as ${JSON.stringify(progress)}${received.outcome.response ? '' : ' and no result'}; expected 1, 2, 3... each once, then the result`,
    numbers,
    calls,
  };
});

const concurrency = property('concurrent calls without cross-talk', async (context) => {
  const name = 'concurrent calls without cross-talk';
  const runs = await Promise.all(
    Array.from({ length: 5 }, (_, i) =>
      recordCall(context.gateway, {
        tool: 'progress',
        arguments: { steps: 5, step_ms: 40 },
        progressToken: `concurrent-${i}`,
        requestId: 10 + i,
        timeoutMs: context.timeoutMs,
      }),
    ),
  );
  const problems: string[] = [];
  runs.forEach((run, i) => {
    const tokens = run.outcome.progress.map((m) => (m.params as { progressToken?: unknown }).progressToken);
    // Another call's token is cross-talk; an unknown token is the tokens property's concern.
    const foreign = tokens.filter((t) => t !== `concurrent-${i}` && typeof t === 'string' && /^concurrent-\d$/.test(t));
    if (foreign.length > 0)
      problems.push(`call ${i} received ${foreign.length} notifications of ${[...new Set(foreign)].join(', ')}`);
    if (run.outcome.response?.id !== 10 + i)
      problems.push(`call ${i} got response id ${JSON.stringify(run.outcome.response?.id)}`);
  });
  return {
    property: name,
    verdict: problems.length === 0 ? 'pass' : 'fail',
    evidence:
      problems.length === 0
        ? '5 concurrent calls, each got only its own notifications and its own result'
        : problems.join('; '),
    numbers: { calls: 5, problems: problems.length },
    calls: await Promise.all(
      runs.map(async (run, i) => timeline(`concurrent ${i}`, run, await auditFor(context, `concurrent-${i}`))),
    ),
  };
});

const blocksProperty = (name: string, scenario: Scenario, judge: typeof checkBlocks): BatteryProperty =>
  property(name, async (context) => {
    const { received, reference } = await pair(context, scenario);
    return fromInvariant(name, judge(received, reference), []);
  });

/** The whole battery, in the order it runs. */
export const BATTERY: readonly BatteryProperty[] = [
  tokenProperty('progress tokens (string)', ['check-token-é-🚀']),
  tokenProperty('progress tokens (number)', [0, 9007199254740991]),
  property('no progress without a token', async (context) => {
    const { received, reference } = await pair(context, { tool: 'progress', arguments: { steps: 3, step_ms: 20 } });
    return fromInvariant('no progress without a token', checkProgressTokens(received, reference), []);
  }),
  spacingProperty('progress streams live (50 ms steps)', 10, 50),
  spacingProperty('progress streams live (500 ms steps)', 3, 500),
  blocksProperty('blocks: count and order', { tool: 'chatty' }, checkBlocks),
  blocksProperty('unicode', { tool: 'chatty' }, checkUnicode),
  blocksProperty(
    'large output (50 x 64 KiB)',
    { tool: 'long_output', arguments: { blocks: 50, chars: 65536 } },
    checkBlocks,
  ),
  cancellation,
  resume,
  concurrency,
];
