import { GoldenError, isGoldenError } from '../errors.js';
import { answerServerRequest, isServerRequest } from './client-handshake.js';
import { describeScenario, type Scenario } from './scenario.js';
import type { WireSession } from './wire-session.js';

/** The standalone stream being read in the background, and how its reading ended badly. */
export interface StandaloneListener {
  /** Rejects with the recording's error (a server request the scenario has no answer for); never resolves. */
  readonly failed: Promise<never>;
  /** Throws that error if it happened, even when the call ended first (its answer may have raced the error). */
  check(): void;
}

/** How long one wait on the quiet standalone stream lasts before the loop looks again. */
const IDLE_MS = 60_000;

/**
 * Opens the standalone stream (HTTP GET, 2025 era) when the scenario answers server requests, and
 * answers the requests the server sends there from `answers`, as a client that declared those
 * capabilities does. Only then: a server sends requests only for capabilities the client declared,
 * and the recorder declares them from `answers`. A request with no answer gets a JSON-RPC error and
 * makes `failed` reject with `E_RECORD` naming it, so the scenario fails at once instead of waiting
 * out its timeout. The stream is dropped by the session's `close()`.
 */
export async function listenStandalone(
  session: WireSession,
  scenario: Scenario,
): Promise<StandaloneListener | undefined> {
  if (!session.listen || Object.keys(scenario.answers ?? {}).length === 0) return undefined;
  const stream = await session.listen();
  if (!stream) return undefined;
  let reject: (error: unknown) => void = () => undefined;
  const failed = new Promise<never>((_, rejectWith) => {
    reject = rejectWith;
  });
  let failure: unknown;
  const fail = (error: unknown): void => {
    failure ??= error;
    reject(error);
  };
  // Read by whoever races it; a rejection nobody waits for is not an unhandled one.
  failed.catch(() => undefined);
  void (async () => {
    for (;;) {
      let next: Awaited<ReturnType<typeof stream.next>>;
      try {
        next = await stream.next(IDLE_MS);
      } catch (error) {
        if (isGoldenError(error, 'E_TIMEOUT')) continue;
        return; // dropped at close, or the connection went away: the call's own stream decides
      }
      if (!next) return;
      if (!isServerRequest(next.message)) continue;
      const method = String(next.message.method);
      if (method !== 'ping' && scenario.answers?.[method] === undefined) {
        // Known before the error answer goes out: the server may end the call on it at once.
        failure = new GoldenError(
          'E_RECORD',
          `Recording ${describeScenario(scenario)} failed: the server sent a ${method} request on the standalone stream and the scenario has no answer for it. Expected an "answers" entry, got none. Add "answers": {"${method}": <result>} to the scenario.`,
        );
      }
      try {
        await answerServerRequest(session, scenario, next.message);
      } catch (error) {
        fail(failure ?? error);
        return;
      }
    }
  })();
  return {
    failed,
    check() {
      if (failure !== undefined) throw failure;
    },
  };
}
