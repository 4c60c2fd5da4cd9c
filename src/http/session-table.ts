import type { ServerResponse } from 'node:http';

/** What the table needs of a 2025 session: its use. */
export interface TableSession {
  /** When a request of this session last started or ended. */
  lastSeen: number;
  /** Requests (open SSE streams included) of this session not yet closed; a session with none is idle. */
  open: number;
}

/**
 * The 2025 sessions of `serve` and `replay` by id, as the answering side's router looks them up:
 * an idle session is ended after `ttlMs`, and at most `maxSessions` are kept (a new one ends the
 * least recently used idle one first).
 */
export class SessionTable<S extends TableSession> {
  private readonly byId = new Map<string, S>();
  private readonly sweeper: NodeJS.Timeout | undefined;

  /** `end` ends a session the table dropped (expired, or making room); `ttl` unset: none expires. */
  constructor(
    private readonly maxSessions: number,
    ttl: number | undefined,
    private readonly end: (session: S) => unknown,
  ) {
    if (ttl === undefined) return;
    this.sweeper = setInterval(() => this.sweep(ttl), Math.max(10, Math.min(ttl / 2, 30_000)));
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

  /** Notes a request naming session `id`: it becomes the most recently used (the table's order is its use). */
  touch(id: string, session: S): void {
    this.byId.delete(id);
    this.byId.set(id, session);
    session.lastSeen = Date.now();
  }

  /** Makes room for one more session, ending the least recently used idle ones: false when every session has a request open. */
  makeRoom(): boolean {
    const max = this.maxSessions;
    let excess = this.byId.size - max + 1;
    for (const [id, session] of this.byId) {
      if (excess <= 0) break;
      if (session.open > 0) continue;
      this.expire(id, session);
      excess--;
    }
    return this.byId.size < max;
  }

  /** Counts a request of `session` (named `id`, once it has one) open until its response closes. */
  track(session: S, res: ServerResponse, id?: string): void {
    session.open++;
    if (id !== undefined) this.touch(id, session);
    else session.lastSeen = Date.now();
    res.once('close', () => {
      session.open--;
      session.lastSeen = Date.now();
      if (id !== undefined && this.byId.get(id) === session) this.touch(id, session);
    });
  }

  /** Stops the sweeper and empties the table: the sessions it held, to be ended. */
  close(): S[] {
    clearInterval(this.sweeper);
    const all = [...this.byId.values()];
    this.byId.clear();
    return all;
  }

  private expire(id: string, session: S): void {
    this.byId.delete(id);
    this.end(session);
  }

  private sweep(ttl: number): void {
    const now = Date.now();
    for (const [id, session] of this.byId) {
      if (session.open === 0 && now - session.lastSeen >= ttl) this.expire(id, session);
    }
  }
}
