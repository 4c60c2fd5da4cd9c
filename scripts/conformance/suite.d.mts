/** One scenario of the conformance suite and the CLI arguments that select it. */
export interface Scenario {
  readonly name: string;
  readonly args: readonly string[];
}
/** One check as the suite's checks.json reports it. */
export interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  readonly error?: string;
}
export interface Row {
  readonly index: number;
  readonly check: string;
  readonly statuses: Readonly<Record<string, string>>;
  readonly errors: Readonly<Record<string, string>>;
}
export interface Regression {
  readonly check: string;
  readonly target: string;
  readonly status: string;
  readonly error: string | undefined;
}
export interface Tally {
  readonly passed: number;
  readonly total: number;
  readonly failed: number;
  readonly warnings: number;
  readonly skipped: number;
}
export const SCENARIOS: readonly Scenario[];
export function runScenario(url: string, scenario: Scenario, options?: { timeoutMs?: number }): Promise<Check[]>;
export function tally(checks: readonly Check[]): Tally;
export function table(results: Readonly<Record<string, readonly Check[]>>): Row[];
export function regressions(rows: readonly Row[], reference: string, targets: readonly string[]): Regression[];
export function markdown(rows: readonly Row[], names: readonly string[]): string;
/** The scenarios recorded from serve (in each era) for the replay the suite runs against. */
export const RECORDED_SCENARIOS: readonly {
  readonly name: string;
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly progressToken?: string;
}[];
