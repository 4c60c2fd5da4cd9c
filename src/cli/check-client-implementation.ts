/**
 * What `mcp-golden check --client` runs, loaded by check-client.ts only once the arguments parse:
 * `--help` and usage errors load none of it.
 */
export { clientJunit, clientSections, clientSummary, formatClientReport } from '../client-check/report.js';
export { ClientSetupError, runClientCheck } from '../client-check/run-client-check.js';
export { timelineHtml } from '../report/html-report.js';
export { junitXml } from '../report/junit.js';
export { writeFileAtomic } from '../store/golden-file.js';
export { stopOnSignal } from './stop-on-signal.js';
