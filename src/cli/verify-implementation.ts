/**
 * What `mcp-golden verify` runs, loaded by its declaration (verify-command.ts) only once its
 * arguments parse: `--help` and usage errors load none of it.
 */
export { compileVolatile, mergeVolatile } from '../transcript/volatile.js';
export { findGoldens } from '../verify/find-goldens.js';
export { emptyShardLine, parseShard, pickShard, shardLine, WHOLE_RUN } from '../verify/shard-goldens.js';
export { redactSecrets, targetSecrets } from '../verify/target-secrets.js';
export { verifyGoldens } from '../verify/verify-goldens.js';
export { buildVerifyReport, formatReportTail, formatVerdictLine } from '../verify/verify-report.js';
export { loadProjectConfig } from './project-config.js';
export { writeVerifyOutputs } from './report-outputs.js';
export { verifyConfigOf } from './verify-config.js';
