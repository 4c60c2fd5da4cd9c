/**
 * What `mcp-golden inspect` runs, loaded by its declaration (inspect-command.ts) only once its
 * arguments parse: `--help` and usage errors load none of it.
 */
export { lintTranscript } from '../lint/lint-transcript.js';
export { timelineHtml } from '../report/html-report.js';
export { readGolden, writeFileAtomic } from '../store/golden-file.js';
export { describeInterruptedWrites, findInterruptedWritesUnder } from '../store/interrupted-writes.js';
export { formatTimeline } from '../transcript/timeline.js';
export { goldenSection } from './html-reports.js';
export { projectOptions } from './lint-command.js';
