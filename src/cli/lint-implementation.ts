/**
 * What `mcp-golden lint` runs, loaded by its declaration (lint-command.ts) only once its arguments
 * parse: `--help` and usage errors load none of it.
 */
export { buildLintJsonReport, formatLintedGolden, lintSummaryLine } from '../lint/lint-json-report.js';
export { lintTranscript } from '../lint/lint-transcript.js';
export { emptyShardLine, parseShard, pickShard, shardLine, WHOLE_RUN } from '../verify/shard-goldens.js';
export { writeLintOutputs } from './report-outputs.js';
