/**
 * What `mcp-golden verify` runs, loaded by its declaration (verify-command.ts) only once its
 * arguments parse: `--help` and usage errors load none of it.
 */
export { timelineHtml } from '../report/html-report.js';
export { junitXml } from '../report/junit.js';
export { sarifLog } from '../report/sarif.js';
export { readGolden, writeFileAtomic } from '../store/golden-file.js';
export { compileVolatile, mergeVolatile } from '../transcript/volatile.js';
export { findGoldens } from '../verify/find-goldens.js';
export { redactSecrets, targetSecrets } from '../verify/target-secrets.js';
export { verifyGoldens } from '../verify/verify-goldens.js';
export { buildVerifyReport, formatReportTail, formatVerdictLine } from '../verify/verify-report.js';
export { SARIF_TOOL, verifyJunit, verifySarif } from './ci-reports.js';
export { verifySections } from './html-reports.js';
export { loadProjectConfig } from './project-config.js';
export { verifyConfigOf } from './verify-config.js';
