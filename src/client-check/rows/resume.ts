import { callsSeen, exitWords, firstWrong, idOf, methodOf, ms, paramsOf, planOf, wrongOutcome } from '../judge-kit.js';
import type { AuditedRequest, ClientRow, GoldenCall, RowRun } from '../vocabulary.js';

const CALL: GoldenCall = { name: 'progress', arguments: { steps: 3, step_ms: 100 }, steps: 3, stepMs: 100 };
const RETRY_MS = 500;
const EARLY_MS = 50;
const LATE_MS = 200;

const resumes = (run: RowRun): AuditedRequest[] =>
  run.audit.filter((r) => r.httpMethod === 'GET' && r.headers['last-event-id'] !== undefined);

/** The POST stream a row cut: ended by the server after its priming event. */
const cutStream = (run: RowRun): AuditedRequest | undefined => callsSeen(run).find((r) => r.fault !== undefined);

/** 2025 resumption rows: the POST stream closes after its priming event; the client resumes with `Last-Event-ID`. */
export const RESUME_ROWS: readonly ClientRow[] = [
  {
    id: 'resume-priming-close',
    eras: ['legacy'],
    budgetMs: 15_000,
    server: () => ({
      calls: [CALL],
      chunking: { primingEvents: true, primingRetryMs: RETRY_MS },
      faults: { cutCall: { nth: 1, after: 'priming' } },
    }),
    plan: () => planOf([CALL]),
    judge(run) {
      const cut = cutStream(run);
      const [get] = resumes(run);
      const delay = get && cut?.endedAt !== undefined ? get.at - cut.endedAt : undefined;
      return firstWrong(
        `the POST stream closed after priming (retry: ${RETRY_MS}) at ${ms(run, cut?.endedAt)}; GET with Last-Event-ID ${get?.headers['last-event-id']} ${delay} ms later; the result printed`,
        [
          get
            ? undefined
            : `no GET with Last-Event-ID after the POST stream closed at ${ms(run, cut?.endedAt)} (the client ${exitWords(run)})`,
          get && !/^primed-/.test(get.headers['last-event-id'] ?? '')
            ? `the GET carried Last-Event-ID ${get.headers['last-event-id']}, not the priming event's id`
            : undefined,
          delay !== undefined && (delay < RETRY_MS - EARLY_MS || delay > RETRY_MS + LATE_MS)
            ? `the GET came ${delay} ms after the close; retry: ${RETRY_MS} asks for ${RETRY_MS - EARLY_MS}..${RETRY_MS + LATE_MS} ms`
            : undefined,
          wrongOutcome(run, 0, CALL, true),
        ],
      );
    },
  },
  {
    id: 'resume-drop-again',
    eras: ['legacy'],
    budgetMs: 15_000,
    server: () => ({
      calls: [CALL],
      chunking: { primingEvents: true, primingRetryMs: 200 },
      faults: { cutCall: { nth: 1, after: 'priming' }, dropResumes: 1 },
    }),
    plan: () => planOf([CALL]),
    judge(run) {
      const gets = run.audit.filter((r) => r.httpMethod === 'GET' && r.at >= (cutStream(run)?.endedAt ?? 0));
      const [first, second] = gets;
      const id = (r: AuditedRequest | undefined): string => r?.headers['last-event-id'] ?? 'none';
      return firstWrong(
        `first resume GET (Last-Event-ID ${id(first)}) dropped at ${ms(run, first?.at)}; the second at ${ms(run, second?.at)} carried the same id; the result printed`,
        [
          first?.headers['last-event-id']
            ? undefined
            : `the first GET after the close carried Last-Event-ID ${id(first)} (the client ${exitWords(run)})`,
          second
            ? undefined
            : `no second GET after the resumed stream dropped at ${ms(run, first?.endedAt)} (the client ${exitWords(run)})`,
          second && id(second) !== id(first)
            ? `the second GET carried Last-Event-ID ${id(second)}, expected ${id(first)} (nothing new arrived in between)`
            : undefined,
          wrongOutcome(run, 0, CALL, true),
        ],
      );
    },
  },
];

/** 2026-07-28: a stream that drops after a progress must be re-issued as a new request. */
export const REISSUE_ROWS: readonly ClientRow[] = [
  {
    id: 'drop-reissue',
    eras: ['modern'],
    budgetMs: 12_000,
    server: () => ({ calls: [CALL], faults: { cutCall: { nth: 1, after: 'progress' } } }),
    plan: () => planOf([CALL]),
    judge(run) {
      const [dropped, again] = callsSeen(run);
      const gets = run.audit.filter((r) => r.httpMethod === 'GET');
      const same = (a: AuditedRequest, b: AuditedRequest): boolean =>
        methodOf(a) === methodOf(b) &&
        JSON.stringify(paramsOf(a).name) === JSON.stringify(paramsOf(b).name) &&
        JSON.stringify(paramsOf(a).arguments) === JSON.stringify(paramsOf(b).arguments);
      return firstWrong(
        `dropped after a progress at ${ms(run, dropped?.endedAt)}; re-issued at ${ms(run, again?.at)} with id ${JSON.stringify(again && idOf(again))} (was ${JSON.stringify(dropped && idOf(dropped))}); the result printed`,
        [
          again
            ? undefined
            : `no new tools/call after the stream dropped at ${ms(run, dropped?.endedAt)} (the client ${exitWords(run)})`,
          again && dropped && !same(again, dropped)
            ? 'the new request differs in method, name or arguments'
            : undefined,
          again && dropped && JSON.stringify(idOf(again)) === JSON.stringify(idOf(dropped))
            ? `the new request reused id ${JSON.stringify(idOf(again))}`
            : undefined,
          gets.length > 0 ? `the client sent ${gets.length} GET(s) (2026-07-28 has no resumption)` : undefined,
          outcomeResult(run),
        ],
      );
    },
  },
];

/** The re-issued call's text (progress may restart, so only the text is judged). */
function outcomeResult(run: RowRun): string | undefined {
  return wrongOutcome(run, 0, CALL, false);
}
