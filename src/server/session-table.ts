import type { ServerResponse } from 'node:http';

/** What the table needs of a 2025 session: its server (closed when the session goes), and its use. */
export interface TableSession {
  readonly server: { close(): Promise<void> };
  /** When a request of this session last started or ended. */
  lastSeen: number;
  /** Requests (open SSE streams included) of this session not yet closed. */
  open: number;
}

/**
 * The reference server's 2025 sessions by id: an idle session is closed after `ttlMs`, and at most
 * `maxSessions` are kept (a new one closes the least recently used idle one first).
 */
export class SessionTable<S extends TableSession> {
  private readonly byId = new Map<string, S>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly ttlMs: number,
    private readonly maxSessions: number,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.max(10, Math.min(ttlMs / 2, 30_000)));
    this.sweeper.unref();
  }

  get(id: string): S | undefined {
    return this.byId.get(id);
  }

  set(id: string, session: S): void {
    this.byId.set(id, session);
  }

  delete(id: string): void {
    this.byId.delete(id);
  }

  /** Ids of the sessions currently open. */
  ids(): string[] {
    return [...this.byId.keys()];
  }

  /** Makes room for one more session: false when every session has a request open. */
  makeRoom(): boolean {
    if (this.byId.size < this.maxSessions) return true;
    // Map order is creation order; the least recently seen idle session goes first.
    const idle = [...this.byId].filter(([, s]) => s.open === 0).sort(([, a], [, b]) => a.lastSeen - b.lastSeen);
    for (const [id, session] of idle.slice(0, this.byId.size - this.maxSessions + 1)) this.expire(id, session);
    return this.byId.size < this.maxSessions;
  }

  /** Counts a request of `session` open until its response closes. */
  track(session: S, res: ServerResponse): void {
    session.open++;
    session.lastSeen = Date.now();
    res.once('close', () => {
      session.open--;
      session.lastSeen = Date.now();
    });
  }

  /** Stops the sweeper and empties the table: the sessions it held, to be closed. */
  close(): S[] {
    clearInterval(this.sweeper);
    const all = [...this.byId.values()];
    this.byId.clear();
    return all;
  }

  private expire(id: string, session: S): void {
    this.byId.delete(id);
    session.server.close().catch(() => undefined);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, session] of this.byId) {
      if (session.open === 0 && now - session.lastSeen >= this.ttlMs) this.expire(id, session);
    }
  }
}
