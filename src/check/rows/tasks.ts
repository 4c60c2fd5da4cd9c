import type { Recording } from '../../record/record-call.js';
import type { AuditEntry } from '../../server/audit-log.js';
import type { Frame } from '../../transcript/frame.js';
import { frameMessage, type JsonRpcMessage } from '../../transcript/frame-content.js';
import { memberOf } from '../../transcript/json-object.js';
import { resultOf } from '../../transcript/json-rpc.js';
import { rowsTagged } from '../audit.js';
import { callFailure, LEG, newTag, notExercised, recordThrough, result, row } from '../kit.js';
import type { BatteryContext, BatteryProperty, PropertyResult, RowNeeds } from '../vocabulary.js';

/** The rows' call: `task_steps` of the check's upstream, which runs as a task for a modern client. */
const STEPS = 3;
const STEP_MS = 80;
const POLL_MS = 40;

/** The task rows have a meaning where both legs speak 2026-07-28, the era of the tasks extension. */
const TASK_NEEDS: RowNeeds = {
  eras: {
    client: {
      is: 'modern',
      why: 'a 2025-11-25 client declares no tasks extension (io.modelcontextprotocol/tasks is 2026-07-28)',
    },
    upstream: {
      is: 'modern',
      why: 'the 2025-11-25 upstream has no tasks extension (io.modelcontextprotocol/tasks is 2026-07-28)',
    },
  },
};

/** What one task call gave on both legs. */
interface TaskRun {
  readonly tag: string;
  /** The client's recording, or why it failed. */
  readonly recording: Recording | string;
  /** The upstream's audit row of the call, once its task ended (or the wait ran out). */
  readonly row: AuditEntry | undefined;
  /** With two upstream replicas (`{upstream2}`): the one that ran the call, 1 or 2 (else `undefined`). */
  readonly replica?: number;
}

/** Which of two replicas ran the call tagged `tag`: 1 or 2, or `undefined` (one upstream, or neither). */
async function replicaOf(context: BatteryContext, tag: string): Promise<number | undefined> {
  if (!context.replicas) return undefined;
  const audits = await Promise.all(context.replicas.map((audit) => audit().catch(() => [] as AuditEntry[])));
  const index = audits.findIndex((rows) => rows.some((e) => memberOf(e.arguments, 'tag') === tag));
  return index < 0 ? undefined : index + 1;
}

async function runTask(context: BatteryContext, row: string, cancelAfter?: number): Promise<TaskRun> {
  const tag = newTag(row);
  let recording: Recording | string;
  try {
    recording = await recordThrough(context, {
      tool: 'task_steps',
      arguments: { steps: cancelAfter ? 50 : STEPS, step_ms: STEP_MS, poll_ms: POLL_MS, tag },
      progressToken: tag,
      era: 'modern',
      timeoutMs: context.timeoutMs,
      ...(cancelAfter !== undefined && { cancelAfter }),
    });
  } catch (error) {
    recording = callFailure(context, error);
  }
  const found = (await rowsTagged(context, tag, 2000))[0];
  const replica = await replicaOf(context, tag);
  return { tag, recording, row: found, ...(replica !== undefined && { replica }) };
}

/** The client's requests and the answers to them, in order, with the HTTP head each request went with. */
function exchanges(frames: readonly Frame[]) {
  const out: { request: JsonRpcMessage; answer: JsonRpcMessage | undefined; mcpName: string | undefined }[] = [];
  const heads = new Map<number, Frame>();
  for (const f of frames) if (f.channel === 'http' && f.dir === 'client->server') heads.set(f.exchange, f);
  for (const f of frames) {
    const message = frameMessage(f);
    if (!message) continue;
    if (f.dir === 'client->server' && typeof message.method === 'string' && 'id' in message)
      out.push({ request: message, answer: undefined, mcpName: heads.get(f.exchange)?.headers?.['mcp-name'] });
    else if (f.dir === 'server->client' && !('method' in message)) {
      const asked = out.find((e) => e.answer === undefined && e.request.id === message.id);
      if (asked) asked.answer = message;
    }
  }
  return out;
}

const taskRequests = (frames: readonly Frame[]) =>
  exchanges(frames).filter((e) => String(e.request.method).startsWith('tasks/'));

const statusOf = (m: JsonRpcMessage | undefined): string =>
  m && 'error' in m ? `error ${JSON.stringify(memberOf(m.error, 'code'))}` : String(resultOf(m)?.status);

const onReplica = (replica: number | undefined): string => (replica ? ` on replica ${replica} of 2` : '');

const describeUpstream = (row: AuditEntry | undefined, tag: string, replica?: number): string =>
  row
    ? `task ${row.taskId ?? '(none: the call did not run as a task)'}${onReplica(replica)}: ${row.outcome} after ${row.stepsCompleted} steps, ${row.notifications.length} progress sent, ${(row.taskRequests ?? []).length} tasks/* request(s) reached it (${(row.taskRequests ?? []).map((r) => `${r.method} Mcp-Name ${JSON.stringify(r.mcpName)} -> ${r.status}`).join(', ') || 'none'})`
    : `no call tagged ${tag} in the upstream's audit log`;

/** The `CreateTaskResult` the client's call was answered with, if it was answered with a task. */
function createdTask(recording: Recording): Readonly<Record<string, unknown>> | undefined {
  const call = exchanges(recording.frames).find((e) => e.request.method === 'tools/call');
  const created = resultOf(call?.answer);
  return created?.resultType === 'task' ? created : undefined;
}

/**
 * The row's verdict: `problems` name what broke (client side first), the upstream's record follows.
 * A task row passes only where a task was made and reached the client: a call the upstream ran
 * without a task exercised nothing (n/a); one whose task the client never saw fails.
 */
function verdict(name: string, run: TaskRun, clientSide: string, problems: readonly string[], numbers = {}) {
  const upstreamSide = `${LEG.upstream}: ${describeUpstream(run.row, run.tag, run.replica)}`;
  if (problems.length > 0) return result(name, 'fail', `${problems.join('; ')}; ${upstreamSide}`, numbers);
  if (run.row && !run.row.taskId)
    return notExercised(
      name,
      `the upstream made no task for the call, so no task was there to pass through; ${upstreamSide}`,
    );
  if (typeof run.recording !== 'string' && !createdTask(run.recording))
    return result(
      name,
      'fail',
      `${LEG.client}: the gateway did not pass the task through: the call was answered without resultType "task"; ${upstreamSide}`,
      numbers,
    );
  return result(name, 'pass', `${LEG.client}: ${clientSide}; ${upstreamSide}`, numbers);
}

/** A row for the tasks extension: a 2026-07-28 duty, n/a outside modern-to-modern. */
const taskRow = (name: string, judge: (context: BatteryContext) => Promise<PropertyResult>): BatteryProperty =>
  row(name, 'light', judge, { era: 'modern', needs: TASK_NEEDS });

const PASSES_ROW = 'tasks: resultType "task" passes through (2026-07-28)';

/** The call's `CreateTaskResult` reaches the client as the upstream sent it, and the task's result at its end. */
const passesThrough = taskRow(PASSES_ROW, async (context) => {
  const run = await runTask(context, 'task');
  if (typeof run.recording === 'string')
    return verdict(PASSES_ROW, run, '', [`${LEG.client}: the task call failed: ${run.recording}`]);
  const frames = run.recording.frames;
  const call = exchanges(frames).find((e) => e.request.method === 'tools/call');
  const created = resultOf(call?.answer);
  const final = run.recording.outcome.response;
  const problems: string[] = [];
  if (created?.resultType !== 'task')
    problems.push(
      `${LEG.client}: the call was answered resultType ${JSON.stringify(created?.resultType ?? null)}, expected "task"${run.row?.taskId ? ` (the upstream created task ${run.row.taskId})` : ''}`,
    );
  else {
    // A gateway may hand out its own task ids: judged as "reach the task" judges them, by whether
    // the client's tasks/* requests under the id it got reached the upstream's task.
    const sent = taskRequests(frames).length;
    const reached = (run.row?.taskRequests ?? []).length;
    if (reached < sent)
      problems.push(
        `${LEG.upstream}: ${reached} of the client's ${sent} tasks/* requests for task ${JSON.stringify(created.taskId)} reached the upstream's task ${JSON.stringify(run.row?.taskId ?? null)}`,
      );
  }
  const done = memberOf(memberOf(resultOf(final)?.result, 'structuredContent'), 'done');
  if (problems.length === 0 && (statusOf(final) !== 'completed' || done !== true))
    problems.push(`${LEG.client}: the task ended ${statusOf(final)} without the tool's result`);
  return verdict(
    PASSES_ROW,
    run,
    `resultType "task" (task ${String(created?.taskId)}), then completed with the result after ${taskRequests(frames).length} tasks/get`,
    problems,
    { polls: taskRequests(frames).length },
  );
});

/** With two replicas: where the `missed` tasks/* requests that did not reach the task's replica went. */
function elsewhere(replica: number | undefined, missed: number, refused: ReturnType<typeof taskRequests>): string {
  if (replica === undefined) return '';
  const notFound =
    refused.length >= missed &&
    refused.every((e) => /task not found/i.test(String(memberOf(e.answer?.error, 'message'))));
  const other = replica === 1 ? 2 : 1;
  return notFound
    ? ` on replica ${replica}; the other ${missed} went to replica ${other}, which does not hold it and answered "Task not found" (pin tasks/* by Mcp-Name: <taskId> to the replica that created the task)`
    : ` on replica ${replica}; ${missed} did not reach it`;
}

const REACH_ROW = 'tasks: tasks/get and tasks/cancel reach the task with Mcp-Name (2026-07-28)';

/** Every `tasks/*` request reaches the upstream holding the task, with `Mcp-Name: <taskId>`; the cancel stops it. */
const reachTheTask = taskRow(REACH_ROW, async (context) => {
  const run = await runTask(context, 'task-cancel', 1);
  if (typeof run.recording === 'string')
    return verdict(REACH_ROW, run, '', [`${LEG.client}: the task call failed: ${run.recording}`]);
  const sent = taskRequests(run.recording.frames);
  const reached = run.row?.taskRequests ?? [];
  const taskId = run.row?.taskId;
  const problems: string[] = [];
  const refused = sent.filter((e) => e.answer === undefined || 'error' in e.answer);
  if (refused.length > 0)
    problems.push(
      `${LEG.client}: ${refused.map((e) => `${String(e.request.method)} (Mcp-Name ${JSON.stringify(e.mcpName)}) got ${statusOf(e.answer)}: ${JSON.stringify(memberOf(e.answer?.error, 'message') ?? null)}`).join('; ')}`,
    );
  if (reached.length !== sent.length)
    problems.push(
      `${LEG.upstream}: ${reached.length} of the client's ${sent.length} tasks/* requests reached the task${elsewhere(run.replica, sent.length - reached.length, refused)}`,
    );
  // Mcp-Name is an HTTP header: a stdio upstream reads the task id from the body alone.
  const renamed = context.upstreamTransport === 'stdio' ? [] : reached.filter((r) => r.mcpName !== taskId);
  if (renamed.length > 0)
    problems.push(
      `${LEG.upstream}: ${renamed.length} arrived with Mcp-Name ${renamed.map((r) => JSON.stringify(r.mcpName)).join(', ')}, the task is ${JSON.stringify(taskId ?? null)}`,
    );
  if (run.row?.cancelReason !== 'tasks/cancel')
    problems.push(`${LEG.upstream}: the task was not cancelled by tasks/cancel`);
  return verdict(
    REACH_ROW,
    run,
    `sent ${sent.map((e) => e.request.method).join(', ')} with Mcp-Name ${JSON.stringify(taskId)}, the task ended ${statusOf(run.recording.outcome.response)}`,
    problems,
    { sent: sent.length, reached: reached.length },
  );
});

const STATUS_ROW = 'tasks: statuses pass through (2026-07-28)';

/** Each `tasks/get` answer the client gets is the one the upstream gave, in order, to the terminal status. */
const statusesPassThrough = taskRow(STATUS_ROW, async (context) => {
  const run = await runTask(context, 'task-status');
  const upstream = (run.row?.taskRequests ?? []).filter((r) => r.method === 'tasks/get').map((r) => r.status);
  if (typeof run.recording === 'string')
    return verdict(STATUS_ROW, run, '', [
      `${LEG.client}: the task did not end as the client saw it: ${run.recording} (the upstream answered ${upstream.length} tasks/get: ${upstream.join(', ') || 'none'})`,
    ]);
  const client = taskRequests(run.recording.frames).map((e) => statusOf(e.answer));
  const problems: string[] = [];
  if (client.length === 0) problems.push(`${LEG.client}: no tasks/get was sent: the call was not answered with a task`);
  else if (JSON.stringify(client) !== JSON.stringify(upstream))
    problems.push(
      `${LEG.client}: the client got statuses ${client.join(', ')}; the upstream answered ${upstream.join(', ') || 'none'}`,
    );
  return verdict(STATUS_ROW, run, `statuses ${client.join(', ')}, as the upstream answered them`, problems, {
    polls: client.length,
  });
});

const PROGRESS_ROW = 'tasks: no fabricated progress (2026-07-28)';

/** The tasks extension has no progress on tasks: none reaches the client, as the upstream sends none. */
const noProgress = taskRow(PROGRESS_ROW, async (context) => {
  const run = await runTask(context, 'task-progress');
  if (typeof run.recording === 'string')
    return verdict(PROGRESS_ROW, run, '', [`${LEG.client}: the task call failed: ${run.recording}`]);
  const progress = run.recording.frames
    .filter((f) => f.dir === 'server->client')
    .map(frameMessage)
    .filter((m) => m?.method === 'notifications/progress');
  const problems =
    progress.length > 0
      ? [
          `${LEG.client}: ${progress.length} notifications/progress arrived for the task call (${progress.map((m) => JSON.stringify(m?.params)).join(', ')}), expected none`,
        ]
      : [];
  return verdict(PROGRESS_ROW, run, 'no notifications/progress for the task call', problems, {
    progress: progress.length,
  });
});

/** The rows of the tasks extension, in the order they run (n/a unless both legs speak 2026-07-28). */
export const TASK_ROWS: readonly BatteryProperty[] = [passesThrough, reachTheTask, statusesPassThrough, noProgress];
