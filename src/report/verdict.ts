/**
 * What a judge says of one row, the one union every report of a check reads: `pass` and `fail`
 * on evidence, `n/a` where the row has no meaning for what was checked, and `inconclusive` where
 * it could not be judged (the thing under check did not get ready in time): neither a pass nor a
 * failure, and counted apart.
 */
export type Verdict = 'pass' | 'fail' | 'n/a' | 'inconclusive';
