import { isJsonObject, type JsonObject } from '../transcript/json-object.js';
import { decodeHeaderValue, ENVELOPE_KEYS, NAME_PARAM } from '../transcript/modern-envelope.js';
import { envelopeIssues, PV_NOT_STRING } from './envelope-issues.js';
import {
  envelopeRefusal,
  headerOf,
  type IncomingHead,
  isModernVersion,
  MODERN_VERSIONS,
  methodNotFound,
  mismatch,
  REMOVED_METHODS,
  type ReadRequest,
  type RequestRefusal,
  unsupportedModern,
} from './request-refusals.js';

// One JSON-RPC message as `read-request.ts` reads it: its era, and its `Mcp-*` headers against its body.

/** What a message's own reading starts from: its kind, method, id and name, and its headers (none over stdio). */
interface MessageContext {
  readonly head: IncomingHead;
  readonly base: Omit<ReadRequest, 'era' | 'version'>;
  readonly params: JsonObject;
  readonly stdio: boolean;
  readonly header: string | undefined;
  readonly methodHeader: string | undefined;
}

/** The `_meta` of a message whose params carry the envelope claim (the protocol-version key), else `undefined`. */
export function claimOf(message: unknown): JsonObject | undefined {
  const params = isJsonObject(message) ? message.params : undefined;
  const meta = isJsonObject(params) ? params._meta : undefined;
  return isJsonObject(meta) && ENVELOPE_KEYS.protocolVersion in meta ? meta : undefined;
}

/** Reads one JSON-RPC request or notification: its era by its envelope, `initialize` or header, and the refusal it gets. */
export function readMessage(
  head: IncomingHead,
  message: JsonObject,
  kind: 'request' | 'notification',
  stdio: boolean,
): ReadRequest {
  const method = message.method as string;
  const params = isJsonObject(message.params) ? message.params : {};
  const nameParam = NAME_PARAM[method];
  const nameValue = nameParam === undefined ? undefined : params[nameParam];
  const nameHeader = stdio ? undefined : headerOf(head, 'mcp-name');
  const context: MessageContext = {
    head,
    base: {
      kind,
      method,
      id: kind === 'request' ? (message.id as string | number) : null,
      name: typeof nameValue === 'string' ? nameValue : undefined,
      ...(nameHeader !== undefined && { nameHeader }),
    },
    params,
    stdio,
    header: stdio ? undefined : headerOf(head, 'mcp-protocol-version'),
    methodHeader: stdio ? undefined : headerOf(head, 'mcp-method'),
  };
  const meta = claimOf(message);
  if (kind === 'request' && method === 'initialize' && !isValidModernClaim(meta)) return readInitialize(context);
  if (meta !== undefined) return readClaimed(context, meta);
  if (context.header !== undefined && isModernVersion(context.header)) return readHeaderOnly(context, context.header);
  return { ...context.base, era: 'legacy', version: context.header };
}

const refused = (
  context: MessageContext,
  refusal: RequestRefusal,
  era: ReadRequest['era'] = 'modern',
): ReadRequest => ({ ...context.base, era, version: undefined, refusal });

/** A 2025 `initialize`: its version the one it asks for; a 2026-07-28 header beside it disagrees. */
function readInitialize(context: MessageContext): ReadRequest {
  const { header, params } = context;
  if (header !== undefined && isModernVersion(header)) {
    const body = 'an initialize request (legacy handshake) was sent with a modern MCP-Protocol-Version header';
    return refused(context, mismatch(header, body), 'legacy');
  }
  const requested = typeof params.protocolVersion === 'string' ? params.protocolVersion : undefined;
  return { ...context.base, era: 'legacy', version: requested };
}

/** A message that claims the envelope: well-formed, agreeing with `MCP-Protocol-Version` and `Mcp-Method`. */
function readClaimed(context: MessageContext, meta: JsonObject): ReadRequest {
  const { base, header, methodHeader } = context;
  const claimed = meta[ENVELOPE_KEYS.protocolVersion];
  const issue =
    base.kind === 'request' ? envelopeIssues(meta)[0] : typeof claimed === 'string' ? undefined : PV_NOT_STRING;
  if (issue !== undefined) return refused(context, envelopeRefusal(issue));
  const version = claimed as string;
  if (header !== undefined && header !== version) {
    const body = `the body envelope names protocol version ${version} but the MCP-Protocol-Version header names ${header}`;
    return refused(context, mismatch(header, body));
  }
  const method = base.method as string;
  if (methodHeader !== undefined && methodHeader !== method && (base.kind === 'request' || isModernVersion(version))) {
    const body = `the body names method ${method} but the Mcp-Method header names ${methodHeader}`;
    return refused(context, mismatch(methodHeader, body));
  }
  return servedModern(context, { ...base, era: 'modern', version });
}

/** A message without the envelope under a 2026-07-28 header: a notification is served, a request misses its envelope. */
function readHeaderOnly(context: MessageContext, header: string): ReadRequest {
  const { base, methodHeader, params } = context;
  if (base.kind === 'notification') {
    if (methodHeader !== undefined && methodHeader !== base.method) {
      const body = `the notification body names method ${base.method} but the Mcp-Method header names ${methodHeader}`;
      return refused(context, mismatch(methodHeader, body));
    }
    return servedModern(context, { ...base, era: 'modern', version: header });
  }
  const present = isJsonObject(params._meta) ? params._meta : undefined;
  const missingKeys = envelopeIssues(present ?? {})
    .filter((issue) => issue.problem === 'missing')
    .map((issue) => issue.key);
  const missing =
    present === undefined ? ['_meta'] : missingKeys.length > 0 ? missingKeys : [ENVELOPE_KEYS.protocolVersion];
  return refused(context, {
    status: 400,
    code: -32602,
    message: `Invalid params: the MCP-Protocol-Version header names protocol revision ${header}, but the request is missing the required per-request envelope key(s): ${missing.join(', ')}`,
    data: { envelope: { missing } },
  });
}

/** A claim that overrides `initialize`'s 2025 reading: well-formed and naming a 2026-07-28 (or later) revision. */
function isValidModernClaim(meta: JsonObject | undefined): boolean {
  const version = meta?.[ENVELOPE_KEYS.protocolVersion];
  return (
    meta !== undefined && typeof version === 'string' && isModernVersion(version) && envelopeIssues(meta).length === 0
  );
}

/** The gates a request the classifier calls modern meets next: the revision served, the standard headers, the method registry. */
function servedModern(context: MessageContext, read: ReadRequest): ReadRequest {
  const version = read.version as string;
  if (!MODERN_VERSIONS.includes(version)) return { ...read, refusal: unsupportedModern(version) };
  if (read.kind !== 'request') return read;
  const refusal =
    (context.stdio ? undefined : standardHeaderRefusal(context.head, read)) ??
    (REMOVED_METHODS.has(read.method as string) ? methodNotFound(read.method) : undefined);
  return refusal ? { ...read, refusal } : read;
}

/** SEP-2243's standard headers on a 2026-07-28 request: `MCP-Protocol-Version`, `Mcp-Method`, and `Mcp-Name` where the method names something. */
function standardHeaderRefusal(head: IncomingHead, read: ReadRequest): RequestRefusal | undefined {
  const method = read.method as string;
  if (headerOf(head, 'mcp-protocol-version') === undefined) {
    return mismatch(
      '(missing)',
      `the body envelope names protocol version ${read.version} but the required MCP-Protocol-Version header is absent`,
    );
  }
  if (headerOf(head, 'mcp-method') === undefined) {
    return mismatch('(missing)', `the body names method ${method} but the required Mcp-Method header is absent`);
  }
  const field = NAME_PARAM[method];
  if (field === undefined) return undefined;
  const nameHeader = headerOf(head, 'mcp-name');
  if (nameHeader === undefined) {
    if (read.name === undefined) return undefined;
    const body = `the body carries params.${field}="${read.name}" but the required Mcp-Name header is absent`;
    return mismatch('(missing)', body);
  }
  const decoded = decodeHeaderValue(nameHeader);
  if (decoded === undefined)
    return mismatch(nameHeader, 'the Mcp-Name header carries an invalid Base64 sentinel value');
  if (read.name !== undefined && decoded !== read.name) {
    const body = `the body carries params.${field}="${read.name}" but the Mcp-Name header names "${decoded.slice(0, 100)}"`;
    return mismatch(nameHeader, body);
  }
  return undefined;
}
