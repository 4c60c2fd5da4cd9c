import { MODERN_PROTOCOL_VERSION } from '../transcript/frame.js';
import { TASKS_EXTENSION } from '../transcript/modern-envelope.js';
import { AUDIT_LOG_URI, REFERENCE_SERVER_INFO } from './reference-server.js';

/**
 * A 2026-07-28 result of the reference server, over HTTP and stdio alike: the `resultType` every
 * result carries, the cache fields of a list or `server/discover`, and the server's info in `_meta`.
 */
export function modernResult(result: Record<string, unknown>, cacheable = false): Record<string, unknown> {
  const meta = typeof result._meta === 'object' && result._meta !== null ? result._meta : {};
  return {
    ...result,
    // A tool may answer `input_required` (a multi-round-trip call); anything else is complete.
    resultType: result.resultType === 'input_required' ? 'input_required' : 'complete',
    ...(cacheable && { ttlMs: 0, cacheScope: 'private' }),
    _meta: { ...meta, 'io.modelcontextprotocol/serverInfo': REFERENCE_SERVER_INFO },
  };
}

/** The reference server's 2026-07-28 capabilities: tools, resources, and the tasks extension where it serves tasks. */
export function modernCapabilities(withTasks: boolean): Record<string, unknown> {
  return { tools: {}, resources: {}, ...(withTasks && { extensions: { [TASKS_EXTENSION]: {} } }) };
}

/** `server/discover`'s result (before {@link modernResult}): the one version and the capabilities. */
export function discoverResult(capabilities: Record<string, unknown>): Record<string, unknown> {
  return { supportedVersions: [MODERN_PROTOCOL_VERSION], capabilities };
}

/** `resources/list`'s result: the audit log, the one resource. */
export const RESOURCE_LIST = {
  resources: [{ uri: AUDIT_LOG_URI, name: 'audit-log', mimeType: 'application/json' }],
} as const;
