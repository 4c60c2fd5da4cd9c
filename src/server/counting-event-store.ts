import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

interface StoredEvent {
  readonly id: string;
  readonly streamId: string;
  readonly message: JSONRPCMessage;
}

/**
 * An SSE event store with deterministic ids `<stream>-<seq>`: streams are numbered in the order
 * they first store an event, and `seq` counts every event of the session. The same session
 * therefore always produces the same ids, so goldens stay stable and `Last-Event-ID` resumption
 * replays exactly the events after the given id on the same stream.
 */
export class CountingEventStore implements EventStore {
  private readonly streamNumbers = new Map<string, number>();
  private readonly events: StoredEvent[] = [];
  private readonly byId = new Map<string, number>();

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    let streamNo = this.streamNumbers.get(streamId);
    if (streamNo === undefined) {
      streamNo = this.streamNumbers.size + 1;
      this.streamNumbers.set(streamId, streamNo);
    }
    const id = `${streamNo}-${this.events.length + 1}`;
    this.byId.set(id, this.events.length);
    this.events.push({ id, streamId, message });
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    const index = this.byId.get(eventId);
    return index === undefined ? undefined : this.events[index]?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const index = this.byId.get(lastEventId);
    if (index === undefined) return '';
    const streamId = this.events[index]?.streamId ?? '';
    for (const event of this.events.slice(index + 1)) {
      // Priming events are stored as `{}`: they carry an id but no message to replay.
      if (event.streamId === streamId && Object.keys(event.message).length > 0) {
        await send(event.id, event.message);
      }
    }
    return streamId;
  }

  /** Number of events stored (priming events included). */
  get size(): number {
    return this.events.length;
  }
}
