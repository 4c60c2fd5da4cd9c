import { isJsonObject } from '../transcript/json-object.js';
import type { ResponseSink } from './http-exchange.js';
import { JSON_HEADERS, jsonRpcError } from './json-rpc-error.js';
import { arrayItemTexts } from './json-text.js';
import { frameEvent } from './reframe.js';
import type { ReplayEngine, ReplaySession } from './replay-engine.js';

/**
 * Answers a JSON-RPC batch the version in use allows (see `batchRefusal`): every request of it
 * through the engine, the answers in one JSON array sent when the last recorded answer is due
 * (notifications in the batch get none, per JSON-RPC).
 */
export function answerBatch(
  engine: ReplayEngine,
  session: ReplaySession,
  batch: readonly unknown[],
  sink: ResponseSink,
  headers: Record<string, string>,
  body?: string,
): void {
  // Each item's own text, so its id and token are answered as the client wrote them.
  const texts = body === undefined ? undefined : arrayItemTexts(body);
  const textOf = (index: number): string | undefined => (texts?.length === batch.length ? texts[index] : undefined);
  const answers: (string | Promise<string | undefined>)[] = batch.map((item, index) => {
    if (!isJsonObject(item) || item.jsonrpc !== '2.0') {
      return jsonRpcError(null, -32600, 'Invalid Request: a batch item is not a JSON-RPC 2.0 message object.');
    }
    const answer = engine.receive(session, item, 'POST', textOf(index));
    if (answer.kind === 'unmatched') return answer.text;
    if (answer.kind === 'accepted') return Promise.resolve(undefined);
    const { call } = answer;
    const reply = call.events.find((e) => e.message && !('method' in e.message));
    return new Promise<string | undefined>((resolve) => {
      engine.play(
        call,
        [reply?.offsetUs ?? 0],
        () => undefined,
        () => {
          call.finished = true;
          resolve(reply && frameEvent(reply, 'json'));
        },
      );
    });
  });
  void Promise.all(answers).then((texts) => {
    const present = texts.filter((t): t is string => t !== undefined);
    if (present.length === 0) {
      sink.head(202, headers);
      sink.end();
      return;
    }
    sink.head(200, { ...JSON_HEADERS, ...headers });
    sink.write(`[${present.join(',')}]`);
    sink.end();
  });
}
