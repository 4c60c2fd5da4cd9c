// Routes what a server sends the careful client: responses to their waiting request, progress to
// its call by token, server requests to an answer. One per client, shared by every call.

/** A promise with its settle functions. */
export function defer() {
  let resolve;
  let reject;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  let settled = false;
  return {
    promise,
    get settled() {
      return settled;
    },
    resolve: (value) => {
      settled = true;
      resolve(value);
    },
    reject: (error) => {
      settled = true;
      reject(error);
    },
  };
}

export class Router {
  constructor(faults, answer) {
    this.faults = faults;
    this.answer = answer;
    this.waiting = new Map();
    this.progress = new Map();
    this.broken = undefined;
  }

  /** Waits for the response to request `id`: `deferred` resolves with `{ message, raw }`. */
  expect(id, deferred) {
    this.waiting.set(JSON.stringify(id), deferred);
  }

  forget(id) {
    this.waiting.delete(JSON.stringify(id));
  }

  onProgress(token, report) {
    this.progress.set(JSON.stringify(token), report);
  }

  dropProgress(token) {
    this.progress.delete(JSON.stringify(token));
  }

  /** One event's data or one JSON body: a message or a batch. */
  receive(raw) {
    let parsed;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      throw new Error(`the server sent data that is not JSON (${error.message}): ${raw.slice(0, 80)}`);
    }
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) this.route(message, raw);
  }

  route(message, raw) {
    if (typeof message !== 'object' || message === null) return;
    if (message.method === 'notifications/progress') {
      const deliver = () => this.deliverProgress(message.params ?? {});
      if (this.faults.has('async-progress-dispatch')) void Promise.resolve().then(deliver);
      else deliver();
      return;
    }
    if (typeof message.method === 'string') {
      if ('id' in message) this.answer(message);
      return;
    }
    if (!('id' in message)) return;
    const waiter = this.waiting.get(JSON.stringify(message.id));
    if (!waiter) return; // a late or unknown response: not ours to report
    this.waiting.delete(JSON.stringify(message.id));
    waiter.resolve({ message, raw });
  }

  deliverProgress(params) {
    const report = this.progress.get(JSON.stringify(params.progressToken));
    if (report) return report(params.progress, params.total);
    if (this.faults.has('unknown-progress-fatal')) {
      this.broken = new Error(`protocol error: progress for unknown token ${JSON.stringify(params.progressToken)}`);
      for (const waiter of this.waiting.values()) waiter.reject(this.broken);
      this.waiting.clear();
    }
  }
}

/** A careful answer to a server's request: accept any elicitation, no roots, a stub sample. */
export function answerFor(request) {
  switch (request.method) {
    case 'elicitation/create':
      return { result: { action: 'accept', content: { ok: true } } };
    case 'roots/list':
      return { result: { roots: [] } };
    case 'sampling/createMessage':
      return { result: { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'careful-client' } };
    case 'ping':
      return { result: {} };
    default:
      return { error: { code: -32601, message: `careful-client does not handle ${request.method}` } };
  }
}

/** Reads an HTTP answer that is not a success into an Error naming the status and the server's message. */
export async function httpError(response, what) {
  const text = await response.text().catch(() => '');
  let detail = text.slice(0, 200);
  try {
    const body = JSON.parse(text);
    if (typeof body?.error?.message === 'string') detail = body.error.message;
  } catch {}
  const error = new Error(`${what}: HTTP ${response.status}${detail ? ` (${detail})` : ''}`);
  error.status = response.status;
  return error;
}

/** True for a response body the client reads as SSE. */
export const isSse = (response) => (response.headers.get('content-type') ?? '').includes('text/event-stream');

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
