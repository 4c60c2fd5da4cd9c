export type { GoldenHandlersEndpoint, GoldenHandlersOptions } from './create-golden-handlers.js';
export { createGoldenHandlers } from './create-golden-handlers.js';
export type { ReplayHandlers, ReplayHandlersOptions } from './create-replay-handlers.js';
export { createReplayHandlers } from './create-replay-handlers.js';
