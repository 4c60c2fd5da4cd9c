/** The cursor a stream leaves: the last `id:` and `retry:` seen. */
export interface SseState {
  lastEventId?: string;
  retry?: number;
}

/** Reads a `text/event-stream` body to its end, calling `onMessage` for each `message` event with non-empty data. */
export declare function readSse(
  body: ReadableStream<Uint8Array>,
  state: SseState,
  onMessage: (data: string) => void,
  faults: ReadonlySet<string>,
): Promise<void>;
