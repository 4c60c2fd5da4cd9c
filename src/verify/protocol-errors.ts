/** The error codes the 2026-07-28 revision reserves, what each means, and what to do. */
const MODERN_ERRORS: Readonly<Record<string, { readonly name: string; readonly meaning: string }>> = {
  '-32020': {
    name: 'HeaderMismatch',
    meaning:
      'the server found an Mcp-Method, Mcp-Name or MCP-Protocol-Version header that disagrees with the body; something between the client and the server rewrote one of them',
  },
  '-32021': {
    name: 'MissingRequiredClientCapability',
    meaning:
      'the server needs a client capability the request did not declare (an input_required round the scenario cannot answer); add the "answers" entry for it to the scenario',
  },
  '-32022': {
    name: 'UnsupportedProtocolVersion',
    meaning:
      "the server does not speak the protocol version of this golden: it changed era (a 2025 golden against a 2026-07-28-only server, or the reverse); re-record the golden in the server's era (`mcp-golden record --era ...`)",
  },
};

/**
 * Names the 2026-07-28 error in a failure's text (`"code":-32020` through `-32022`), with what it
 * means for a golden; `undefined` when the text holds none of them.
 */
export function classifyProtocolError(text: string): string | undefined {
  const code = /"code"\s*:\s*(-3202[0-2])\b/.exec(text)?.[1];
  const known = code === undefined ? undefined : MODERN_ERRORS[code];
  return known && `${code} ${known.name}: ${known.meaning}.`;
}
