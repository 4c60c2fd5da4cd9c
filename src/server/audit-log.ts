/** JSON type of a value as the upstream saw it on the wire. */
export type WireType = 'string' | 'number' | 'absent';

/** How a `tools/call` ended at the upstream. */
export type AuditOutcome = 'running' | 'result' | 'cancelled' | 'closed' | 'error';

/** One `notifications/progress` the upstream sent, with its send time. */
export interface AuditNotification {
  readonly progress: number;
  readonly total: number;
  readonly message: string;
  /** Milliseconds since the call started (monotonic clock). */
  readonly sentAtMs: number;
}

/**
 * One `tools/call` as the reference upstream saw it. Everything a gateway test needs to prove
 * what reached the upstream: the token and its JSON type, what was sent and when, and how the
 * call ended.
 */
export interface AuditEntry {
  /** 1-based position in the log. */
  readonly seq: number;
  /** Session id on Streamable HTTP; `null` on stdio and in process. */
  readonly sessionId: string | null;
  readonly tool: string;
  /** Arguments exactly as received (before defaults). */
  readonly arguments: unknown;
  readonly requestId: string | number;
  readonly requestIdType: 'string' | 'number';
  /** `_meta.progressToken` verbatim, or `null` when the request carried none. */
  readonly progressToken: string | number | null;
  readonly progressTokenType: WireType;
  /** Progress notifications sent, in order. */
  notifications: AuditNotification[];
  /** Steps reached: a step counts once its progress notification is sent (or would be, without a token). */
  stepsCompleted: number;
  outcome: AuditOutcome;
  /** True only when the tool returned its result. */
  done: boolean;
  /** True when `notifications/cancelled` for this request arrived before the result, or a modern (2026-07-28) client closed its stream. */
  cancelled: boolean;
  cancelReason: string | null;
  /** Milliseconds since the call started at which the cancellation arrived. */
  cancelledAtMs: number | null;
  /**
   * Set when a `notifications/cancelled` naming this request id reached the connection this many ms
   * before the call did. With its signal not yet aborted the call then ran, as a server may ignore a
   * cancel for a request it does not know; a call the SDK had already aborted is `cancelled` instead.
   */
  cancelBeforeCallMs?: number;
  /** Error text for `outcome: 'error'` (invalid arguments, unknown tool). */
  error: string | null;
  /** Milliseconds since the log was created (monotonic). */
  readonly startedAtMs: number;
  /** Wall-clock start, `performance.timeOrigin + now`, comparable across processes on one machine. */
  readonly startedAtEpochMs: number;
  /** Milliseconds from start to the end of the call; `null` while running. */
  durationMs: number | null;
  /** The `Mcp-*` request headers as received (modern era over HTTP only), names lower-cased. */
  readonly mcpHeaders?: Readonly<Record<string, string>>;
  /** The task id, when the call ran as a task (tasks extension, 2026-07-28). */
  readonly taskId?: string;
  /** The `tasks/*` requests that reached the task, in order, with the `Mcp-Name` each carried. */
  taskRequests?: AuditTaskRequest[];
  /**
   * A 2026-07-28 multi-round-trip call: the `inputResponses` and `requestState` the request carried
   * (verbatim; `received` is absent on a first round that carried neither), and the `input_required`
   * result the tool answered (`sent`), if it did.
   */
  inputRound?: {
    readonly received?: { readonly inputResponses?: unknown; readonly requestState?: unknown };
    sent?: Readonly<Record<string, unknown>>;
  };
}

/** One `tasks/get`, `tasks/update` or `tasks/cancel` a task received. */
export interface AuditTaskRequest {
  readonly method: string;
  readonly requestId: string | number;
  /** Its `Mcp-Name` header as received (`null` over a transport without headers). */
  readonly mcpName: string | null;
  /** The task's status when it was answered. */
  readonly status: string;
  /** Milliseconds since the call started. */
  readonly atMs: number;
}

/** Fields the server supplies when a call starts. */
export type AuditStart = Pick<AuditEntry, 'sessionId' | 'tool' | 'arguments' | 'requestId' | 'progressToken'> &
  Pick<Partial<AuditEntry>, 'mcpHeaders' | 'taskId' | 'inputRound'>;

function wireType(value: unknown): WireType {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  return 'absent';
}

const round3 = (ms: number): number => Math.round(ms * 1000) / 1000;

/**
 * In-memory log of every `tools/call` the reference server handled, across all sessions.
 * Read it in process (`entries()`, `waitFor()`), or over the wire with the `audit_log` tool.
 *
 * @example
 * const server = await startReferenceServer()
 * // ... drive a gateway ...
 * const [row] = server.audit.entries()
 * expect(row.progressTokenType).toBe('string')
 */
export class AuditLog {
  private readonly rows: AuditEntry[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly settledListeners = new Set<(entry: AuditEntry) => void>();
  private readonly origin: number;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.origin = now();
  }

  /** Opens a row for a call that just arrived; returns it for the handler to update. */
  begin(start: AuditStart): AuditEntry {
    const at = this.now();
    const entry: AuditEntry = {
      seq: this.rows.length + 1,
      sessionId: start.sessionId,
      tool: start.tool,
      arguments: start.arguments,
      requestId: start.requestId,
      requestIdType: typeof start.requestId === 'string' ? 'string' : 'number',
      progressToken: start.progressToken,
      progressTokenType: wireType(start.progressToken),
      notifications: [],
      stepsCompleted: 0,
      outcome: 'running',
      done: false,
      cancelled: false,
      cancelReason: null,
      cancelledAtMs: null,
      error: null,
      startedAtMs: round3(at - this.origin),
      startedAtEpochMs: round3(performance.timeOrigin + at),
      durationMs: null,
      ...(start.mcpHeaders && { mcpHeaders: start.mcpHeaders }),
      ...(start.taskId !== undefined && { taskId: start.taskId, taskRequests: [] }),
      ...(start.inputRound && { inputRound: start.inputRound }),
    };
    this.rows.push(entry);
    this.changed();
    return entry;
  }

  /** Milliseconds since `entry` started. */
  elapsed(entry: AuditEntry): number {
    return round3(this.now() - this.origin - entry.startedAtMs);
  }

  /** Records a progress notification that was just written to the transport. */
  noteNotification(entry: AuditEntry, n: Omit<AuditNotification, 'sentAtMs'>): void {
    entry.notifications.push({ ...n, sentAtMs: this.elapsed(entry) });
    this.changed();
  }

  /** Records a `tasks/*` request that reached the task the call runs as. */
  noteTaskRequest(entry: AuditEntry, request: Omit<AuditTaskRequest, 'atMs'>): void {
    entry.taskRequests = [...(entry.taskRequests ?? []), { ...request, atMs: this.elapsed(entry) }];
    this.changed();
  }

  /** Records that a cancellation for the call arrived (first one wins). */
  noteCancel(entry: AuditEntry, reason: string | null): void {
    if (entry.cancelled || entry.outcome !== 'running') return;
    entry.cancelled = true;
    entry.cancelReason = reason;
    entry.cancelledAtMs = this.elapsed(entry);
    this.changed();
  }

  /** Records that a cancel naming the call reached its connection `ms` before the call itself (first one wins). */
  noteCancelBeforeCall(entry: AuditEntry, ms: number): void {
    if (entry.cancelled || entry.cancelBeforeCallMs !== undefined) return;
    entry.cancelBeforeCallMs = round3(ms);
    this.changed();
  }

  /** Closes the row. */
  finish(entry: AuditEntry, outcome: Exclude<AuditOutcome, 'running'>, error?: string): void {
    entry.outcome = outcome;
    entry.done = outcome === 'result';
    entry.error = error ?? null;
    entry.durationMs = this.elapsed(entry);
    this.changed();
    for (const listener of this.settledListeners) listener(structuredClone(entry));
  }

  /**
   * Calls `listener` with a copy of each row as its call ends (a row does not change after that);
   * returns the function that stops the calls.
   */
  onSettled(listener: (entry: AuditEntry) => void): () => void {
    this.settledListeners.add(listener);
    return () => this.settledListeners.delete(listener);
  }

  /** A snapshot copy of every row, oldest first. */
  entries(): AuditEntry[] {
    return structuredClone(this.rows);
  }

  /** Forgets every row (sequence numbers restart at 1). */
  clear(): void {
    this.rows.length = 0;
    this.changed();
  }

  /**
   * Resolves with the first row matching `predicate` (checked on every change), or rejects after
   * `timeoutMs` with the rows seen so far.
   * @default timeoutMs 5000
   */
  waitFor(predicate: (entry: AuditEntry) => boolean, timeoutMs = 5000): Promise<AuditEntry> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const hit = this.rows.find(predicate);
        if (!hit) return false;
        cleanup();
        resolve(structuredClone(hit));
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `Audit log wait timed out after ${timeoutMs} ms: no row matched. Rows seen: ${JSON.stringify(this.rows)}.`,
          ),
        );
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.waiters.delete(listener);
      };
      const listener = (): void => {
        check();
      };
      if (!check()) this.waiters.add(listener);
    });
  }

  private changed(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
