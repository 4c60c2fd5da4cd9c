import { isJsonObject, type JsonObject } from '../transcript/json-object.js';
import { ENVELOPE_KEYS } from '../transcript/modern-envelope.js';

/** One thing wrong with a 2026-07-28 per-request envelope: which key, what problem. */
export interface EnvelopeIssue {
  readonly key: string;
  readonly problem: string;
}

export const PV_NOT_STRING: EnvelopeIssue = {
  key: ENVELOPE_KEYS.protocolVersion,
  problem: 'expected a protocol version string',
};
const LOG_LEVELS = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);

/** What is wrong with a 2026-07-28 envelope: missing required keys first, then malformed ones (the SDK's `validateEnvelopeMeta`). */
export function envelopeIssues(meta: JsonObject): EnvelopeIssue[] {
  const issues: EnvelopeIssue[] = [];
  for (const key of [ENVELOPE_KEYS.protocolVersion, ENVELOPE_KEYS.clientCapabilities]) {
    if (!(key in meta)) issues.push({ key, problem: 'missing' });
  }
  const pv = meta[ENVELOPE_KEYS.protocolVersion];
  if (pv !== undefined && typeof pv !== 'string') issues.push(PV_NOT_STRING);
  const caps = meta[ENVELOPE_KEYS.clientCapabilities];
  if (caps !== undefined && !isJsonObject(caps))
    issues.push({ key: ENVELOPE_KEYS.clientCapabilities, problem: 'expected an object' });
  const info = meta[ENVELOPE_KEYS.clientInfo];
  if (
    info !== undefined &&
    !(isJsonObject(info) && typeof info.name === 'string' && typeof info.version === 'string')
  ) {
    issues.push({ key: ENVELOPE_KEYS.clientInfo, problem: 'expected an object with a string name and version' });
  }
  const level = meta['io.modelcontextprotocol/logLevel'];
  if (level !== undefined && !(typeof level === 'string' && LOG_LEVELS.has(level))) {
    issues.push({ key: 'io.modelcontextprotocol/logLevel', problem: 'expected a logging level' });
  }
  const token = meta.progressToken;
  if (token !== undefined && typeof token !== 'string' && typeof token !== 'number') {
    issues.push({ key: 'progressToken', problem: 'expected a string or a number' });
  }
  return issues;
}
