import { GoldenError } from '../errors.js';
import { isJsonObject } from '../transcript/json-object.js';
import { parseVolatile } from '../transcript/volatile.js';
import { isCallStep, parsePlainScenario, parseSessionScenario, type ScenarioStep } from './scenario-session.js';

/** Switches of the live reference server a scenario is recorded against. */
export interface ScenarioServer {
  /** Answer with one JSON body instead of SSE. @default false */
  readonly jsonResponse?: boolean;
  /** Send `X-Accel-Buffering: no`. @default true */
  readonly accelHeader?: boolean;
  /** Keep-alive comment interval in ms, 0 for none. @default 0 */
  readonly keepAliveMs?: number;
  /** `progress` fails at this step with `isError: true`, after a final notification. @default unset */
  readonly failAtStep?: number;
}

/**
 * One call to record, as data: which tool, which arguments, which token and request id, and what
 * the client does mid-stream.
 *
 * @example
 * const scenario: Scenario = { name: 'progress-cancel', tool: 'progress', arguments: { steps: 10, step_ms: 100 },
 *   progressToken: 'cancel-me', cancelAfter: 3 }
 */
export interface Scenario {
  /** Golden file name (without `.jsonl`); letters, digits, `-`, `_`, `.`. Optional for ad-hoc calls. */
  readonly name?: string;
  readonly description?: string;
  readonly tool: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
  /** `_meta.progressToken` to send, verbatim (string or number); omitted when absent. */
  readonly progressToken?: string | number;
  /** JSON-RPC id of the `tools/call`. @default 1 */
  readonly requestId?: string | number;
  /**
   * Send `notifications/cancelled` after this many progress notifications arrived (2026-07-28 over
   * HTTP: close the stream). A call the server answers with a task (tasks extension) has no progress:
   * there `tasks/cancel` goes after this many `tasks/get` polls found it still running.
   */
  readonly cancelAfter?: number;
  /** Drop the stream after this many progress notifications and resume with `Last-Event-ID`. */
  readonly dropAfter?: number;
  /**
   * 2025-11-25 era only (its experimental tasks): sent as the call's `params.task` (`{"ttl": 60000}`),
   * asking the server to run the call as a task; the recorder then polls `tasks/get` every
   * `pollInterval` and fetches the result with `tasks/result`. (The 2026-07-28 tasks extension needs
   * no field: the server decides, and the recorder follows any task it is answered with.)
   */
  readonly task?: Readonly<Record<string, unknown>>;
  /** Transport for a scenario recorded against the reference server. @default 'http' */
  readonly transport?: 'http' | 'stdio';
  /** Reference server switches used by `mcp-golden record`. */
  readonly server?: ScenarioServer;
  /**
   * Protocol era to record in: `legacy` (2025: initialize, a session), `modern` (2026-07-28:
   * `server/discover`, the per-request envelope and `Mcp-*` headers, cancel by closing the stream,
   * `input_required` rounds answered from `answers`), or `auto`: probe an HTTP target with
   * `server/discover` as the SDK v2 client does and fall back to legacy (stdio records legacy).
   * @default 'legacy' (`mcp-golden record --target` defaults to `auto`)
   */
  readonly era?: 'legacy' | 'modern' | 'auto';
  /** Protocol version to ask for in the legacy era's initialize. @default '2025-11-25' */
  readonly protocolVersion?: string;
  /** Longest wait for any one message, in ms. @default 30000 */
  readonly timeoutMs?: number;
  /**
   * Results the recorder answers the server's requests with, by method (`sampling/createMessage`,
   * `elicitation/create`, `roots/list`, ...): requests sent on the call's stream (legacy) or
   * embedded in an `input_required` result (modern). The matching client capabilities are declared
   * in `initialize` or the per-request envelope. @default {}
   */
  readonly answers?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The call is expected to fail (an unknown tool, bad arguments): record the error. @default false */
  readonly expectError?: boolean;
  /** JSONPaths `verify` does not compare for this golden (recorded in its header). @default [] */
  readonly ignore?: readonly string[];
  /** Patterns (or `iso-time`, `uuid`) `verify` masks for this golden (recorded in its header). @default [] */
  readonly mask?: readonly string[];
  /**
   * Lint rules this recording is a deliberate exception to, each with the reason; copied into the
   * golden's `notes.lint`, where `mcp-golden lint` reads it.
   */
  readonly lint?: Readonly<Record<string, string>>;
  /**
   * A session: requests after the handshake, in order, each a call (`tool`, `arguments`, ...) or any
   * request (`{"method": "resources/read", "params": {...}}`). Written as `{"name", "steps": [...]}`
   * with the session-wide fields (`answers`, `transport`, ...); the call fields above then repeat
   * its first call, which names the golden's header. @default one step: the scenario's own call
   */
  readonly steps?: readonly ScenarioStep[];
}

/** How errors name a scenario: its name, else its tool. */
export function describeScenario(scenario: Scenario): string {
  return scenario.name ? `"${scenario.name}"` : `tool "${scenario.tool}"`;
}

/**
 * Checks one scenario given as data (a plain call or a session of steps), naming the source, the
 * scenario and the field on error (`E_SCENARIO`). The shapes and their rules are declared once, in
 * `scenario-session.ts` (zod), which also gives the published `scenario.schema.json`.
 */
export function parseScenario(value: unknown, where: string): Scenario {
  if (!isJsonObject(value)) {
    throw new GoldenError('E_SCENARIO', `Invalid scenario ${where}: expected an object with at least "tool".`);
  }
  if ('steps' in value) {
    const session = parseSessionScenario(withoutFirstCall(value), where);
    parseVolatile({ ignore: session.ignore, mask: session.mask }, where);
    return sessionAsScenario(session);
  }
  const plain = parsePlainScenario(value, where);
  parseVolatile({ ignore: plain.ignore, mask: plain.mask }, where);
  return value as unknown as Scenario;
}

/** Parses a list of scenarios (a JSON array); names must be present and unique. */
export function parseScenarioList(value: unknown, source: string): Scenario[] {
  if (!Array.isArray(value)) {
    throw new GoldenError('E_SCENARIO', `Invalid scenario list in ${source}: expected a JSON array of scenarios.`);
  }
  const seen = new Set<string>();
  return value.map((item, index) => {
    const scenario = parseScenario(item, `#${index + 1} in ${source}`);
    if (!scenario.name) {
      throw new GoldenError(
        'E_SCENARIO',
        `Invalid scenario #${index + 1} in ${source}: a listed scenario needs a "name".`,
      );
    }
    if (seen.has(scenario.name)) {
      throw new GoldenError(
        'E_SCENARIO',
        `Invalid scenario list in ${source}: the name "${scenario.name}" is used twice.`,
      );
    }
    seen.add(scenario.name);
    return scenario;
  });
}

/** A session scenario in the one `Scenario` shape: its first call's fields on top, its steps kept. */
function sessionAsScenario(session: ReturnType<typeof parseSessionScenario>): Scenario {
  const first = session.steps.find(isCallStep);
  return { ...session, ...first, steps: session.steps } as Scenario;
}

const CALL_KEYS = [
  'tool',
  'arguments',
  'progressToken',
  'requestId',
  'cancelAfter',
  'dropAfter',
  'expectError',
  'task',
] as const;

const pickCall = (value: Readonly<Record<string, unknown>>): string =>
  JSON.stringify(CALL_KEYS.map((key) => value[key] ?? null));

/**
 * A session given back in the `Scenario` shape (its first call's fields on top, as
 * {@link parseScenario} returns it) reads as the session it came from; call fields on top that
 * are not its first call's stay, and are refused as unknown.
 */
function withoutFirstCall(value: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const steps = Array.isArray(value.steps) ? value.steps : [];
  const first = steps.find((step): step is Record<string, unknown> => isJsonObject(step) && 'tool' in step);
  if (!first || pickCall(first) !== pickCall(value)) return value;
  const rest: Record<string, unknown> = { ...value };
  for (const key of CALL_KEYS) delete rest[key];
  return rest;
}
