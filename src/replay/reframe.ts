import type { ReplayEvent } from './replay-plan.js';
import { dataOf } from './stamp.js';

/** How an adapter puts messages on its wire: SSE events, one JSON body, or stdio lines. */
export type Framing = 'sse' | 'json' | 'stdio';

/**
 * The text of a (stamped) replayed event in `framing`: the recorded bytes unchanged when the
 * event was recorded in that framing, else its JSON-RPC message re-framed. `undefined` when the
 * event carries nothing to send in that framing (an SSE priming event on stdio, say).
 */
export function frameEvent(event: Pick<ReplayEvent, 'kind' | 'raw'>, framing: Framing): string | undefined {
  if (event.kind === framing) return event.raw;
  const data = dataOf(event.raw, event.kind);
  if (data === undefined) return undefined;
  // A line break inside the JSON text would split a stdio line or an SSE data field.
  const text = /[\r\n]/.test(data) ? compact(data) : data;
  if (framing === 'stdio') return `${text}\n`;
  if (framing === 'sse') return `event: message\ndata: ${text}\n\n`;
  return text;
}

function compact(data: string): string {
  try {
    return JSON.stringify(JSON.parse(data));
  } catch {
    return data.replace(/\r\n|\r|\n/g, ' ');
  }
}
