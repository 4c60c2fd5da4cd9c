// The replay's HTTP rules are the one front door's (`http/front-door.ts`); kept for the stdio replay's import.
export { DEFAULT_MAX_BODY_BYTES } from '../http/front-door.js';
