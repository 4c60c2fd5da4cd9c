/**
 * What a judge says of one row, the one union every report of a check (gateway or client) reads:
 * `pass` and `fail` on evidence, `warn` a pass with a remark (allowed, but not the best behaviour:
 * a clear refusal of an 8 MiB result, a cancel sent both ways), `n/a` where the row has no meaning
 * for what was checked, and `inconclusive` where it could not be judged (the thing under check did
 * not get ready in time): neither a pass nor a failure, and counted apart.
 */
export type Verdict = 'pass' | 'warn' | 'fail' | 'n/a' | 'inconclusive';
