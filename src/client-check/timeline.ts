import type { AuditedRequest, RowMark, RowRun } from './vocabulary.js';

const since = (run: RowRun, at: number): number => Math.round(at - run.startedAt);

/** A request in words: `POST tools/call #2 (id 3)`, `GET Last-Event-ID primed-2`, and the fault it got. */
function requestTitle(request: AuditedRequest): string {
  const message = request.message as { method?: unknown; id?: unknown; result?: unknown } | undefined;
  const method = typeof message?.method === 'string' ? ` ${message.method}` : message ? ' (a response)' : '';
  const id = message?.id !== undefined ? ` id ${JSON.stringify(message.id)}` : '';
  const resume =
    request.headers['last-event-id'] !== undefined ? ` Last-Event-ID ${request.headers['last-event-id']}` : '';
  const session = request.headers['mcp-session-id'] !== undefined ? ' (with session)' : '';
  const status = request.status !== undefined ? ` -> ${request.status}` : '';
  const fault = request.fault ? `; fault: ${request.fault}` : '';
  return `${request.httpMethod}${method}${id}${resume}${session}${status}${fault}`;
}

/** The row's evidence on one clock: each request the server saw (and when its response ended), each line the client printed. */
export function rowTimeline(run: RowRun): { server: RowMark[]; client: RowMark[] } {
  const server: RowMark[] = [];
  for (const request of run.audit) {
    const method = (request.message as { method?: unknown } | undefined)?.method;
    server.push({
      ms: since(run, request.at),
      kind: method === 'notifications/cancelled' ? 'cancel' : 'request',
      title: requestTitle(request),
    });
    if (request.closedByClientAt !== undefined)
      server.push({
        ms: since(run, request.closedByClientAt),
        kind: 'cancel',
        title: `the client closed the response of ${requestTitle(request)}`,
      });
    else if (request.endedAt !== undefined && request.fault)
      server.push({
        ms: since(run, request.endedAt),
        kind: 'other',
        title: `the server ended the response (${request.fault})`,
      });
  }
  const client: RowMark[] = run.lines.map((line) => {
    const ms = since(run, line.at);
    if ('progress' in line)
      return { ms, kind: 'progress', title: `call ${line.call}: progress ${line.progress}/${line.total ?? '?'}` };
    if ('result' in line)
      return { ms, kind: 'result', title: `call ${line.call}: result (${line.result.length} chars)` };
    if ('error' in line) return { ms, kind: 'error', title: `call ${line.call}: error ${line.error.slice(0, 200)}` };
    return { ms, kind: 'cancel', title: `call ${line.call}: aborted` };
  });
  if (run.exit)
    client.push({ ms: since(run, run.exit.at), kind: 'other', title: `exited ${run.exit.signal ?? run.exit.code}` });
  return { server: server.sort((a, b) => a.ms - b.ms), client };
}
