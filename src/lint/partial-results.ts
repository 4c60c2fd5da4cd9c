import { canonicalJson } from '../transcript/canonical-json.js';
import { contentOf, partialResultOf } from '../transcript/json-rpc.js';
import type { Arrival } from '../transcript/read-calls.js';
import type { LintView } from './lint-view.js';
import type { LintViolation } from './lint-violation.js';
import { violation } from './lint-violation.js';

/**
 * `partial-results` (experimental): when a call streamed partial results and its final result has
 * content, that content is the concatenation of the partial results' content, in order. An empty
 * final result (the proposal's recommendation) makes no claim and passes.
 */
export function checkPartialResults(view: LintView): LintViolation[] {
  const out: LintViolation[] = [];
  for (const call of view.calls) {
    const partial = call.progress.filter((p: Arrival) => partialResultOf(p.message) !== undefined);
    const final = contentOf(call.response?.message?.result);
    if (partial.length === 0 || !final || final.length === 0) continue;
    const joined = partial.flatMap((p) => contentOf(partialResultOf(p.message)) ?? []);
    if (canonicalJson(joined) === canonicalJson(final)) continue;
    out.push(
      violation(
        view,
        'partial-results',
        { call, event: call.response },
        `the final result has ${final.length} content blocks; the ${partial.length} partial results concatenate to ${joined.length} different ones`,
        `final content == concatenation of the partial results (${canonicalJson(joined).slice(0, 120)})`,
        canonicalJson(final).slice(0, 120),
      ),
    );
  }
  return out;
}
