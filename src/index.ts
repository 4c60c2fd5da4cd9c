export type { GoldenErrorCode } from './errors.js';
export { GoldenError, isGoldenError } from './errors.js';
