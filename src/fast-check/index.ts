export type { ArgumentBounds } from './arbitraries.js';
export { chunking, progressToken, requestId, scenario, toolArguments } from './arbitraries.js';
export type { GatewayPropertyOptions, StartedGateway } from './gateway-property.js';
export { gatewayProperty, saveCounterexample } from './gateway-property.js';
