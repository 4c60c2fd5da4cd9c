/**
 * What `mcp-golden check` runs, loaded by its declaration (check-command.ts) only once its
 * arguments parse: `--help` and usage errors load none of it (the SDK, ajv, the battery).
 */
export { formatReport, overallLine, timelineSvg } from '../check/report.js';
export { runGatewayCheck } from '../check/run-check.js';
export { CheckSetupError } from '../check/setup-error.js';
export { timelineHtml } from '../report/html-report.js';
export { junitXml } from '../report/junit.js';
export { writeFileAtomic } from '../store/golden-file.js';
export { checkJunit } from './ci-reports.js';
export { checkSections } from './html-reports.js';
export { stopOnSignal } from './stop-on-signal.js';
