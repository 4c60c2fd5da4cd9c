/** Why a proxied session ended: the client's DELETE, its last connection closed, or a quiet spell. */
export type SessionEndReason = 'delete' | 'disconnect' | 'idle';

/** The timer seam of {@link SessionActivity}: `setTimeout` by default, a fake clock in tests. */
export interface IdleTimers {
  /** Calls `run` after `ms`; returns what cancels it. */
  schedule(ms: number, run: () => void): () => void;
}

/** Node's timers, unref'd so a quiet session never keeps a process alive. */
export const nodeIdleTimers: IdleTimers = {
  schedule(ms, run) {
    const timer = setTimeout(run, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** How long a session may be quiet (no request, no open stream) before it counts as ended. @default 5000 */
export const DEFAULT_SESSION_IDLE_MS = 5000;

/** Options of {@link SessionActivity}. */
export interface SessionActivityOptions {
  /** @default {@link DEFAULT_SESSION_IDLE_MS} */
  readonly idleMs?: number;
  /** @default {@link nodeIdleTimers} */
  readonly timers?: IdleTimers;
  /** Called once each time a session ends; a session that is used again may end again later. */
  readonly onEnd: (sessionId: string, reason: SessionEndReason) => void;
}

interface Session {
  readonly open: Set<number>;
  readonly connections: Set<object>;
  cancelIdle: (() => void) | undefined;
  ended: boolean;
}

/**
 * Tells when a client has left a session of a proxy, for clients that send no DELETE (the
 * Inspector CLI, the SDK v1 client's `close()`): a session ends when no exchange of it is open (no
 * request in flight, no open stream) and either every connection that carried it has closed or it
 * stayed that way for `idleMs`. `''` is the session of the exchanges that carry no session id (a
 * stateless server). Pure bookkeeping: the proxy reports what happens, time comes from `timers`.
 */
export class SessionActivity {
  private readonly sessions = new Map<string, Session>();
  /** Exchanges whose session is not known yet (an `initialize` learns its id from the answer). */
  private readonly unassigned = new Map<number, object>();
  private readonly idleMs: number;
  private readonly timers: IdleTimers;
  private stopped = false;

  constructor(private readonly options: SessionActivityOptions) {
    this.idleMs = options.idleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.timers = options.timers ?? nodeIdleTimers;
  }

  /** A request arrived on `connection`, with the session id it carried (none: learnt from its answer). */
  opened(exchange: number, sessionId: string | undefined, connection: object): void {
    if (sessionId === undefined) this.unassigned.set(exchange, connection);
    else this.join(sessionId, exchange, connection);
  }

  /** The answer's head arrived, with the session id it handed out, if any. */
  answered(exchange: number, sessionId: string | undefined): void {
    const connection = this.unassigned.get(exchange);
    if (connection === undefined) return;
    this.unassigned.delete(exchange);
    this.join(sessionId ?? '', exchange, connection);
  }

  /** The exchange is over: its answer ended, failed or was cancelled. */
  closed(exchange: number): void {
    if (this.unassigned.delete(exchange)) return;
    for (const [id, session] of this.sessions) {
      if (session.open.delete(exchange)) this.settle(id, session);
    }
  }

  /** A connection of the client closed. */
  disconnected(connection: object): void {
    for (const [id, session] of this.sessions) {
      if (session.connections.delete(connection)) this.settle(id, session);
    }
  }

  /** The client's DELETE of the session was answered. */
  deleted(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (session !== undefined) this.end(sessionId, session, 'delete');
    else if (!this.stopped) this.options.onEnd(sessionId, 'delete');
  }

  /** Stops every idle timer and reports no more ends (the proxy is closing). */
  stop(): void {
    this.stopped = true;
    for (const session of this.sessions.values()) session.cancelIdle?.();
  }

  private join(id: string, exchange: number, connection: object): void {
    let session = this.sessions.get(id);
    if (session === undefined) {
      session = { open: new Set(), connections: new Set(), cancelIdle: undefined, ended: false };
      this.sessions.set(id, session);
    }
    session.ended = false;
    session.cancelIdle?.();
    session.cancelIdle = undefined;
    session.open.add(exchange);
    session.connections.add(connection);
  }

  private settle(id: string, session: Session): void {
    if (session.ended || session.open.size > 0) return;
    if (session.connections.size === 0) {
      this.end(id, session, 'disconnect');
      return;
    }
    session.cancelIdle?.();
    session.cancelIdle = this.timers.schedule(this.idleMs, () => {
      session.cancelIdle = undefined;
      if (!session.ended && session.open.size === 0) this.end(id, session, 'idle');
    });
  }

  private end(id: string, session: Session, reason: SessionEndReason): void {
    session.cancelIdle?.();
    session.cancelIdle = undefined;
    if (session.ended || this.stopped) return;
    session.ended = true;
    this.options.onEnd(id, reason);
  }
}
