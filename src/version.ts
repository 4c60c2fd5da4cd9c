/** This package's version (kept equal to package.json by a test). */
export const VERSION = '0.1.0';

/** What goldens record as their recorder. */
export const RECORDER = `mcp-golden ${VERSION}`;

/** MCP protocol version asked for when a scenario names none. */
export const DEFAULT_PROTOCOL_VERSION = '2025-11-25';
