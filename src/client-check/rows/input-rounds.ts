import { INPUT_ROUND_KEY, inputRoundState } from '../../replay/input-rounds.js';
import { MODERN_PROTOCOL_VERSION } from '../../transcript/frame.js';
import { callsSeen, exitWords, firstWrong, idOf, methodOf, ms, paramsOf, planOf, wrongOutcome } from '../judge-kit.js';
import type { AuditedRequest, ClientRow, GoldenCall, RowRun } from '../vocabulary.js';

const CHATTY: GoldenCall = { name: 'chatty', arguments: {} };
const ROUNDS = 2;

/** Where two texts first differ, for the evidence of a state that is not byte-exact. */
function firstDifference(got: string, sent: string): string {
  const a = [...got];
  const b = [...sent];
  const at = b.findIndex((c, i) => a[i] !== c);
  const i = at === -1 ? b.length : at;
  return `first difference at character ${i}: sent ${JSON.stringify(b.slice(i, i + 8).join(''))}, got ${JSON.stringify(a.slice(i, i + 8).join(''))}`;
}

/** Why retry `round` (from 1: the answer to round `round`) is not what the server asked for, or `undefined`. */
function wrongRetry(
  retry: AuditedRequest | undefined,
  round: number,
  before: readonly AuditedRequest[],
): string | undefined {
  if (!retry) return undefined;
  const params = paramsOf(retry);
  const sent = inputRoundState(round);
  const state = params.requestState;
  const at = `retry ${round}`;
  if (typeof state !== 'string') return `${at} carried no requestState (round ${round} sent ${JSON.stringify(sent)})`;
  if (state !== sent)
    return `${at} echoed requestState ${JSON.stringify(state)}, not byte for byte the ${JSON.stringify(sent)} the server sent (${firstDifference(state, sent)})`;
  const answer = (params.inputResponses as Record<string, { action?: unknown }> | undefined)?.[INPUT_ROUND_KEY];
  if (answer?.action !== 'accept')
    return `${at} answered the elicitation "${INPUT_ROUND_KEY}" with ${JSON.stringify(answer ?? null)}, expected an accept`;
  const reused = before.find((r) => JSON.stringify(idOf(r)) === JSON.stringify(idOf(retry)));
  if (reused) return `${at} reused request id ${JSON.stringify(idOf(retry))} (each retry is a new request)`;
  return undefined;
}

/** Why a POST lacks the 2026-07-28 routing headers, or `undefined`. */
function wrongHeaders(run: RowRun): string | undefined {
  for (const post of run.audit.filter((r) => r.httpMethod === 'POST')) {
    const method = methodOf(post);
    const name = paramsOf(post).name;
    const h = post.headers;
    const what = `the POST of ${String(method)} at ${ms(run, post.at)}`;
    if (h['mcp-protocol-version'] !== MODERN_PROTOCOL_VERSION)
      return `${what} carried MCP-Protocol-Version ${h['mcp-protocol-version'] ?? 'none'}, expected ${MODERN_PROTOCOL_VERSION}`;
    if (h['mcp-method'] !== method) return `${what} carried Mcp-Method ${h['mcp-method'] ?? 'none'}`;
    if (method === 'tools/call' && h['mcp-name'] !== name)
      return `${what} carried Mcp-Name ${h['mcp-name'] ?? 'none'}, expected ${String(name)}`;
  }
  return undefined;
}

/** `mrtr-streamed` (2026-07-28): `input_required` over SSE twice, then the result. */
export const INPUT_ROUND_ROWS: readonly ClientRow[] = [
  {
    id: 'mrtr-streamed',
    eras: ['modern'],
    budgetMs: 12_000,
    server: () => ({ calls: [CHATTY], faults: { inputRounds: ROUNDS } }),
    plan: () => planOf([CHATTY]),
    judge(run) {
      const calls = callsSeen(run);
      const ids = calls.map((r) => JSON.stringify(idOf(r))).join(', ');
      const posts = run.audit.filter((r) => r.httpMethod === 'POST').length;
      const retried = calls
        .slice(1)
        .map((r) => ms(run, r.at))
        .join(' and ');
      return firstWrong(
        `input_required over SSE twice: retried at ${retried} (ids ${ids}), each with the requestState byte for byte and an accept; every POST (${posts}) carried MCP-Protocol-Version, Mcp-Method and Mcp-Name; the result printed`,
        [
          ...Array.from({ length: ROUNDS }, (_, k) => wrongRetry(calls[k + 1], k + 1, calls.slice(0, k + 1))),
          wrongHeaders(run),
          calls.length >= ROUNDS + 1
            ? undefined
            : `the server saw ${calls.length} tools/call (ids ${ids || 'none'}); expected the call and ${ROUNDS} retries (the client ${exitWords(run)}; ${calls.at(-1)?.fault ?? 'no fault applied'})`,
          wrongOutcome(run, 0, CHATTY, false),
        ],
      );
    },
  },
];
