export type { ReplayHandlers, ReplayHandlersOptions } from './create-replay-handlers.js';
export { createReplayHandlers } from './create-replay-handlers.js';
