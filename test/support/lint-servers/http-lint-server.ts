import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type EventStore, StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CountingEventStore } from '../../../src/server/counting-event-store.js';
import { createLintServer } from './lint-server.mjs';

/** Loses the first missed event on every replay: a resume that is not lossless. */
class LossyEventStore extends CountingEventStore {
  override async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    let skipped = false;
    return super.replayEventsAfter(lastEventId, {
      send: async (id, message) => {
        if (!skipped) {
          skipped = true;
          return;
        }
        await send(id, message);
      },
    });
  }
}

/** Gives every second event the id of the one before it: ids that are not unique. */
class ReusingEventStore extends CountingEventStore {
  private count = 0;
  override async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    await super.storeEvent(streamId, message);
    return `evt-${Math.floor(this.count++ / 2)}-x`;
  }
}

function eventStoreFor(flaw: string): EventStore {
  if (flaw === 'resume-lossless') return new LossyEventStore();
  if (flaw === 'event-ids') return new ReusingEventStore();
  return new CountingEventStore();
}

/** A lint server on loopback Streamable HTTP (stateful, with an event store), until `close()`. */
export interface HttpLintServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves the lint server with `flaw` on 127.0.0.1, port 0; the event store depends on the flaw. */
export async function startHttpLintServer(flaw: string): Promise<HttpLintServer> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();
  let count = 0;
  const http = createServer((req, res) => {
    const id = req.headers['mcp-session-id'];
    const existing = typeof id === 'string' ? sessions.get(id) : undefined;
    const run = async (): Promise<void> => {
      if (existing) return existing.transport.handleRequest(req, res);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => `lint-session-${++count}`,
        eventStore: eventStoreFor(flaw),
        // Long enough that the steps after the drop are stored before the client resumes, even on a
        // loaded machine, so the replay (and what the lossy store leaves out of it) is deterministic.
        retryInterval: 300,
        onsessioninitialized: (sid) => {
          sessions.set(sid, { transport, server });
        },
      });
      const server = createLintServer(flaw);
      await server.connect(transport);
      await transport.handleRequest(req, res);
    };
    run().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      await Promise.allSettled([...sessions.values()].map((s) => s.server.close()));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
