/**
 * The replay's pass-through as library functions: what no golden matches goes to a live server (over
 * HTTP in both eras, or a stdio command), its answer comes back as it streams, every message of a
 * passed-through call goes both ways (cancels, the live server's own requests and the client's
 * answers), and each live session is recorded as a golden of its own. The CLI only parses and calls.
 */
export { type HttpPassthrough, startHttpPassthrough } from './http-passthrough.js';
export type { PassedThrough } from './relay.js';
export { type StdioPassthrough, startStdioPassthrough } from './stdio-passthrough.js';
