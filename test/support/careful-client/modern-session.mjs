// The careful client in the 2026-07-28 era: server/discover, the _meta envelope on every request,
// MCP-Protocol-Version / Mcp-Method / Mcp-Name on every POST, cancel by closing the POST's response
// stream, a dropped call re-issued as a new POST with a new id, input_required answered by retrying
// with a new id and the requestState echoed byte for byte.
import { answerFor, defer, httpError, isSse, Router } from './router.mjs';
import { readSse } from './sse-reader.mjs';

const VERSION = '2026-07-28';
const MAX_REISSUES = 3;
const MAX_ROUNDS = 10;
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'mcp-golden-careful-client', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};
/** Stands for the requestState in a body until the server's own JSON text replaces it. */
const STATE_VALUE = '\u0000careful-request-state\u0000';
const STATE_SLOT = JSON.stringify(STATE_VALUE);

/** `Mcp-Name`: the name itself when it is plain visible ASCII, else SEP-2243's base64 sentinel. */
function nameHeader(name) {
  return /^[\x21-\x7e]*$/.test(name) ? name : `=?base64?${Buffer.from(name, 'utf8').toString('base64')}?=`;
}

/**
 * The JSON text of the string `value` of key `key` exactly as `raw` spells it, so an echo is
 * byte-exact whatever escapes the server chose; undefined when it cannot be found unambiguously.
 */
export function rawStringOf(raw, key, value) {
  const pattern = new RegExp(`"${key}"\\s*:\\s*"`, 'g');
  for (let match = pattern.exec(raw); match; match = pattern.exec(raw)) {
    const open = match.index + match[0].length - 1;
    let i = open + 1;
    while (i < raw.length && raw[i] !== '"') i += raw[i] === '\\' ? 2 : 1;
    const literal = raw.slice(open, i + 1);
    try {
      if (JSON.parse(literal) === value) return literal;
    } catch {}
  }
  return undefined;
}

export class ModernSession {
  constructor(url, faults) {
    this.url = url;
    this.faults = faults;
    // 2026-07-28 has no server-to-client requests on a call's stream: input_required replaces them.
    this.router = new Router(faults, () => {});
    this.nextId = 1;
    this.closed = new AbortController();
    /** Streams of aborted calls left open (the no-cancel fault): the client waits for them before it exits. */
    this.lingering = [];
  }

  post(body, method, name, signal = this.closed.signal) {
    return fetch(this.url, {
      method: 'POST',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-protocol-version': VERSION,
        'mcp-method': method,
        ...(name !== undefined && { 'mcp-name': nameHeader(name) }),
      },
      body,
      signal,
    });
  }

  async connect() {
    const id = this.nextId++;
    const answer = defer();
    this.router.expect(id, answer);
    const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: ENVELOPE } });
    const response = await this.post(body, 'server/discover');
    if (!response.ok) throw await httpError(response, 'server/discover');
    await this.drain(response);
    if (!answer.settled) throw new Error('server/discover: the answer ended without a response');
    const { message } = await answer.promise;
    if (message.error) throw new Error(`server/discover: ${message.error.message}`);
    const versions = message.result?.supportedVersions;
    if (Array.isArray(versions) && !versions.includes(VERSION)) {
      throw new Error(`server/discover: the server offers ${versions.join(', ')}, not ${VERSION}`);
    }
  }

  async drain(response) {
    if (isSse(response)) await readSse(response.body, {}, (data) => this.router.receive(data), this.faults);
    else this.router.receive(await response.text());
  }

  /** One tools/call, through as many input_required rounds as the server asks. */
  async callTool(call, { signal, onProgress }) {
    const token = this.faults.has('shared-progress-token') ? 'progress' : `careful-${this.nextId}`;
    if (onProgress) this.router.onProgress(token, onProgress);
    try {
      let round = { inputResponses: undefined, state: undefined };
      let id = this.nextId++;
      for (let rounds = 0; rounds < MAX_ROUNDS; rounds++) {
        const params = {
          name: call.name,
          arguments: call.arguments,
          _meta: { ...ENVELOPE, ...(onProgress && { progressToken: token }) },
          ...(round.inputResponses && { inputResponses: round.inputResponses }),
          ...(round.state !== undefined && { requestState: STATE_VALUE }),
        };
        const { message, raw } = await this.exchange(id, params, round.state, signal);
        if (message.error) throw new Error(message.error.message ?? JSON.stringify(message.error));
        if (message.result?.resultType !== 'input_required') return message.result;
        round = this.nextRound(message.result, raw);
        id = this.faults.has('mrtr-same-id') ? id : this.nextId++;
      }
      throw new Error(`the server asked for input ${MAX_ROUNDS} times`);
    } finally {
      if (onProgress) this.router.dropProgress(token);
    }
  }

  /** The answers to an input_required result's requests, and its requestState as the server wrote it. */
  nextRound(result, raw) {
    const inputResponses = {};
    for (const [key, request] of Object.entries(result.inputRequests ?? {})) {
      const answer = answerFor(request);
      if (answer.error) throw new Error(answer.error.message);
      inputResponses[key] = answer.result;
    }
    if (typeof result.requestState !== 'string') return { inputResponses, state: undefined };
    if (this.faults.has('requeststate-reserialised')) {
      let value = result.requestState;
      try {
        value = JSON.stringify(JSON.parse(value));
      } catch {}
      return { inputResponses, state: JSON.stringify(value) };
    }
    return {
      inputResponses,
      state: rawStringOf(raw, 'requestState', result.requestState) ?? JSON.stringify(result.requestState),
    };
  }

  /** One request of a call: POSTed again with a new id when its stream drops before the response. */
  async exchange(firstId, params, stateText, signal) {
    let id = firstId;
    for (let reissues = 0; ; reissues++) {
      if (this.router.broken) throw this.router.broken;
      const answer = defer();
      const stream = new AbortController();
      this.router.expect(id, answer);
      const onAbort = () => {
        // Cancelling is closing the response stream; no notification is POSTed.
        if (!this.faults.has('no-cancel')) stream.abort();
        answer.settled || answer.reject(new Error('aborted'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      let body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });
      if (stateText !== undefined) body = body.replace(STATE_SLOT, () => stateText);
      const dropped = this.follow(body, params.name, stream.signal, answer).then(
        () => !answer.settled,
        (error) => {
          answer.settled || answer.reject(error);
          return false;
        },
      );
      try {
        if ((await Promise.race([answer.promise, dropped])) !== true) return await answer.promise;
      } finally {
        signal.removeEventListener('abort', onAbort);
        this.router.forget(id);
        if (!this.faults.has('no-cancel') || !signal.aborted) stream.abort();
        else this.lingering.push(dropped);
      }
      if (this.faults.has('no-reissue')) throw new Error('the response stream ended without a response');
      if (reissues >= MAX_REISSUES) throw new Error(`the response stream dropped ${MAX_REISSUES + 1} times`);
      if (!this.faults.has('reissue-same-id')) id = this.nextId++;
    }
  }

  /** POSTs and reads the answer; resolves when the body ends, whether or not the response came. */
  async follow(body, name, signal, answer) {
    const response = await this.post(body, 'tools/call', name, signal);
    if (!response.ok) {
      const error = await httpError(response, 'tools/call');
      if (response.status >= 500 && this.faults.has('hang-on-5xx')) return new Promise(() => {});
      throw error;
    }
    await this.drain(response);
    if (!answer.settled && !isSse(response)) throw new Error('the JSON answer carried no response to the call');
  }

  async close() {
    await Promise.all(this.lingering);
    this.closed.abort();
  }
}
