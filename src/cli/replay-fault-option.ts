import { GoldenError } from '../errors.js';
import type { ReplayFaults } from '../replay/replay-faults.js';

/** `replay --fault SPEC` values, as `replay --help` lists them. */
export const FAULT_SPECS =
  'fail-call=N:STATUS (the Nth tools/call answered with that HTTP status), session-gone-after=N (404 for a session once it had N calls), cut-call=N:head|priming|progress (the Nth call ends early; :no-ids also strips event ids), drop-resumes=N (the first N resumption GETs end before any event), flap-gets (every standalone GET ends at once), coalesce-final (the last progress leaves with the result), input-rounds=N (every tools/call answered input_required N times; each retry must echo the requestState byte for byte), keep-alive=MS (a `: keepalive` comment every MS ms on each open call stream)';

const whole = (text: string | undefined, spec: string, min = 1): number => {
  if (text !== undefined && /^\d+$/.test(text) && Number(text) >= min && Number(text) <= 1_000_000) return Number(text);
  throw new GoldenError(
    'E_USAGE',
    `--fault ${spec}: expected a whole number >= ${min}, got ${JSON.stringify(text ?? '')}. The specs: ${FAULT_SPECS}.`,
  );
};

/** The request-level faults `--fault` (repeatable) asks for; a bad spec is a usage error naming the accepted ones. */
export function parseFaultSpecs(specs: readonly string[]): ReplayFaults {
  let faults: ReplayFaults = {};
  for (const spec of specs) {
    const [name, value] = spec.split('=', 2) as [string, string | undefined];
    const [first, second, third] = (value ?? '').split(':');
    if (name === 'fail-call') {
      faults = { ...faults, failCall: { nth: whole(first, spec), status: whole(second, spec, 400) } };
    } else if (name === 'session-gone-after') {
      faults = { ...faults, sessionGoneAfter: whole(first, spec) };
    } else if (name === 'cut-call' && (second === 'head' || second === 'priming' || second === 'progress')) {
      const stripIds = third === 'no-ids';
      faults = { ...faults, cutCall: { nth: whole(first, spec), after: second, ...(stripIds && { stripIds }) } };
    } else if (name === 'drop-resumes') {
      faults = { ...faults, dropResumes: whole(first, spec) };
    } else if (name === 'flap-gets' && value === undefined) {
      faults = { ...faults, flapGets: true };
    } else if (name === 'keep-alive') {
      faults = { ...faults, keepAliveMs: whole(first, spec, 10) };
    } else if (name === 'input-rounds') {
      faults = { ...faults, inputRounds: whole(first, spec) };
    } else if (name === 'coalesce-final' && value === undefined) {
      faults = { ...faults, coalesceFinal: true };
    } else {
      throw new GoldenError('E_USAGE', `Unknown --fault ${JSON.stringify(spec)}. Expected one of: ${FAULT_SPECS}.`);
    }
  }
  return faults;
}
