export type { AuditEntry, AuditNotification, AuditOutcome, AuditTaskRequest, WireType } from './audit-log.js';
export { AuditLog } from './audit-log.js';
export { CountingEventStore } from './counting-event-store.js';
export type { ReferenceServer, ReferenceServerOptions } from './http-server.js';
export { MCP_PATH, startReferenceServer } from './http-server.js';
export type { ConnectReferenceOptions } from './reference-server.js';
export {
  AUDIT_LOG_TOOL,
  AUDIT_LOG_URI,
  connectReferenceServer,
  REFERENCE_SERVER_INFO,
} from './reference-server.js';
export type { ReferenceToolName } from './reference-tools.js';
export { CHATTY_BLOCKS, longOutputBlock, referenceToolDefinitions } from './reference-tools.js';
export type { StdioReferenceServer, StdioServeOptions } from './stdio-server.js';
export { serveReferenceStdio } from './stdio-server.js';
