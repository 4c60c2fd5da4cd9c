// The careful client in the 2025-11-25 era: initialize + initialized, Mcp-Session-Id, a standalone GET
// reopened with backoff, notifications/cancelled on abort, resumption with GET + Last-Event-ID after
// the retry delay, a new session on 404, prompt errors for 5xx and for streams that cannot resume.
import { answerFor, defer, httpError, isSse, Router, sleep } from './router.mjs';
import { readSse } from './sse-reader.mjs';

const VERSION = '2025-11-25';
const MAX_RESUMES = 5;

class SessionGone extends Error {}

export class LegacySession {
  constructor(url, faults) {
    this.url = url;
    this.faults = faults;
    this.router = new Router(faults, (request) => this.answerServer(request));
    this.nextId = 1;
    this.sessionId = undefined;
    this.protocolVersion = VERSION;
    this.closed = new AbortController();
    this.handshake = undefined;
  }

  headers(extra = {}) {
    return {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...(this.sessionId !== undefined && { 'mcp-session-id': this.sessionId }),
      ...(this.handshake !== undefined && { 'mcp-protocol-version': this.protocolVersion }),
      ...extra,
    };
  }

  post(message, signal = this.closed.signal) {
    return fetch(this.url, { method: 'POST', headers: this.headers(), body: JSON.stringify(message), signal });
  }

  /** initialize, then initialized, then the standalone GET stream in the background. */
  async connect() {
    this.sessionId = undefined;
    this.handshake = undefined;
    const id = this.nextId++;
    const response = await this.post({
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: {
        protocolVersion: VERSION,
        capabilities: { elicitation: {} },
        clientInfo: { name: 'mcp-golden-careful-client', version: '1.0.0' },
      },
    });
    if (!response.ok) throw await httpError(response, 'initialize');
    this.sessionId = response.headers.get('mcp-session-id') ?? undefined;
    const answer = await this.readAnswer(response, id);
    if (answer.message.error) throw new Error(`initialize: ${answer.message.error.message}`);
    this.protocolVersion = answer.message.result?.protocolVersion ?? VERSION;
    this.handshake = 'done';
    const initialized = await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await initialized.body?.cancel();
    void this.standaloneGet(this.sessionId);
  }

  /** Reads the response to `id` from a JSON or SSE body (initialize only: no resumption). */
  async readAnswer(response, id) {
    const answer = defer();
    this.router.expect(id, answer);
    if (isSse(response)) await readSse(response.body, {}, (data) => this.router.receive(data), this.faults);
    else this.router.receive(await response.text());
    if (!answer.settled) throw new Error(`the answer to request ${id} ended without a response`);
    return answer.promise;
  }

  /** The standalone GET stream, reopened with a doubling delay (3 s first) while the session lives. */
  async standaloneGet(session) {
    let delay = 3000;
    while (!this.closed.signal.aborted && this.sessionId === session) {
      let response;
      const state = {};
      try {
        response = await fetch(this.url, {
          method: 'GET',
          headers: {
            accept: 'text/event-stream',
            'mcp-session-id': session,
            'mcp-protocol-version': this.protocolVersion,
          },
          signal: this.closed.signal,
        });
        if (!response.ok || !isSse(response)) return void (await response.body?.cancel());
        const opened = Date.now();
        await readSse(response.body, state, (data) => this.router.receive(data), this.faults);
        if (Date.now() - opened > 60_000) delay = 3000;
      } catch {
        if (this.closed.signal.aborted) return;
      }
      if (this.faults.has('get-no-backoff')) continue;
      await sleep(Math.max(delay, state.retry ?? 0));
      delay = Math.min(delay * 2, 30_000);
    }
  }

  answerServer(request) {
    const reply = { jsonrpc: '2.0', id: request.id, ...answerFor(request) };
    void this.post(reply)
      .then((response) => response.body?.cancel())
      .catch(() => {});
  }

  /** One tools/call: a new session and the call again on a 404, as often as the server asks. */
  async callTool(call, { signal, onProgress }) {
    for (;;) {
      const session = this.sessionId;
      try {
        return await this.callOnce(call, signal, onProgress);
      } catch (error) {
        if (!(error instanceof SessionGone)) throw error;
        if (this.faults.has('no-reinit-404')) throw new Error(`HTTP 404: session ${session} not found`);
        // One new session for every call that met the same dead one.
        if (this.sessionId === session) this.reconnecting = this.connect();
        await this.reconnecting;
      }
    }
  }

  async callOnce(call, signal, onProgress) {
    if (this.router.broken) throw this.router.broken;
    const id = this.nextId++;
    const token = this.faults.has('shared-progress-token') ? 'progress' : `careful-${id}`;
    const answer = defer();
    const stream = new AbortController();
    const params = {
      name: call.name,
      arguments: call.arguments,
      ...(onProgress && { _meta: { progressToken: token } }),
    };
    this.router.expect(id, answer);
    if (onProgress) this.router.onProgress(token, onProgress);
    const onAbort = () => void this.cancel(id, stream, answer);
    signal.addEventListener('abort', onAbort, { once: true });
    this.follow(id, params, stream.signal, answer).catch((error) => answer.settled || answer.reject(error));
    try {
      const { message } = await answer.promise;
      if (message.error) throw new Error(message.error.message ?? JSON.stringify(message.error));
      return message.result;
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.router.forget(id);
      if (onProgress) this.router.dropProgress(token);
      stream.abort();
    }
  }

  /** notifications/cancelled naming the request (sent before the stream is let go), then aborted. */
  async cancel(id, stream, answer) {
    if (!this.faults.has('no-cancel')) {
      const requestId = this.faults.has('cancel-wrong-id') ? id + 1000 : id;
      const notice = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'aborted' } };
      await this.post(notice)
        .then((response) => response.body?.cancel())
        .catch(() => {});
      stream.abort();
    }
    answer.settled || answer.reject(new Error('aborted'));
  }

  /** POSTs the call and follows its answer: JSON, SSE, or SSE resumed by GET until the response comes. */
  async follow(id, params, signal, answer) {
    const response = await this.post({ jsonrpc: '2.0', id, method: 'tools/call', params }, signal);
    if (response.status === 404 && this.sessionId !== undefined) {
      await response.body?.cancel();
      throw new SessionGone();
    }
    if (!response.ok) {
      const error = await httpError(response, 'tools/call');
      if (response.status >= 500 && this.faults.has('hang-on-5xx')) return;
      throw error;
    }
    if (!isSse(response)) return this.router.receive(await response.text());
    const state = {};
    await readSse(response.body, state, (data) => this.router.receive(data), this.faults);
    for (let resumes = 1; !answer.settled && !signal.aborted; resumes++) {
      if (state.lastEventId === undefined || state.lastEventId === '') {
        if (this.faults.has('hang-on-stream-end')) return;
        throw new Error('the response stream ended without a response and without an event id to resume from');
      }
      if (this.faults.has('no-resume')) throw new Error('the response stream ended without a response');
      if (resumes > MAX_RESUMES) throw new Error(`the response stream dropped ${MAX_RESUMES} times without a response`);
      await sleep(this.faults.has('resume-ignores-retry') ? 1000 : (state.retry ?? 1000));
      if (answer.settled || signal.aborted) return;
      const omitId =
        this.faults.has('resume-no-last-event-id') || (this.faults.has('second-resume-no-id') && resumes >= 2);
      const resumed = await fetch(this.url, {
        method: 'GET',
        headers: {
          accept: 'text/event-stream',
          'mcp-session-id': this.sessionId,
          'mcp-protocol-version': this.protocolVersion,
          ...(!omitId && { 'last-event-id': state.lastEventId }),
        },
        signal,
      });
      if (!resumed.ok || !isSse(resumed)) throw await httpError(resumed, 'resuming with Last-Event-ID');
      await readSse(resumed.body, state, (data) => this.router.receive(data), this.faults);
    }
  }

  close() {
    this.closed.abort();
  }
}
