import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { closeNow, listenLoopback } from '../http/listen-loopback.js';
import { bodyKindOf } from '../transcript/body-kind.js';
import { setOwn } from '../transcript/canonical-json.js';
import {
  type Frame,
  GOLDEN_FORMAT,
  MODERN_PROTOCOL_VERSION,
  type Transcript,
  type TranscriptHeader,
} from '../transcript/frame.js';
import { frameMessage } from '../transcript/frame-content.js';
import { paramsOf } from '../transcript/json-rpc.js';
import { envelopeVersion } from '../transcript/modern-envelope.js';
import { type RedactOptions, redactTranscript } from '../transcript/redact.js';
import { DEFAULT_PROTOCOL_VERSION, RECORDER } from '../version.js';
import { FrameSink } from './frame-sink.js';
import { type IdleTimers, SessionActivity, type SessionEndReason } from './session-activity.js';

/** Options of {@link startRecordingProxy}. */
export interface RecordingProxyOptions {
  /** The MCP server to forward to, e.g. `http://127.0.0.1:3000/mcp` (its path is kept per request). */
  readonly upstream: string;
  /** Port to listen on (127.0.0.1). @default 0 */
  readonly port?: number;
  /** Secrets removed from the transcript. @default credential headers */
  readonly redact?: RedactOptions;
  /**
   * Called when a client leaves a session, with that session's id (`''`: the exchanges that carry
   * none) and why: its `DELETE` was answered, its last connection closed, or it was quiet (no
   * request, no open stream) for `sessionIdleMs`. A session used again may end again.
   */
  readonly onSessionEnd?: (sessionId: string, reason: SessionEndReason) => void;
  /** How long a session may be quiet before it counts as ended. @default 5000 */
  readonly sessionIdleMs?: number;
  /** The timers of the idle wait. @default setTimeout */
  readonly timers?: IdleTimers;
}

/** A running recording proxy. */
export interface RecordingProxy {
  /** Where clients connect: the upstream URL with the proxy's host and port. */
  readonly url: string;
  readonly port: number;
  /** Wall-clock time of the proxy's `t = 0`, in ms since the epoch. */
  readonly originEpochMs: number;
  /** Everything recorded so far (open streams end as `open`). */
  transcript(): Transcript;
  /** Stops listening and drops open connections; returns the final transcript. */
  close(): Promise<Transcript>;
}

function headerRecord(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) setOwn(out, name, Array.isArray(value) ? value.join(', ') : value);
  }
  return out;
}

/**
 * A reverse proxy on node:http that sits between any client (an IDE, a gateway, a Python SDK
 * client) and any MCP server, forwards every byte unchanged and as soon as it arrives, and records
 * both directions read by read.
 *
 * @example
 * const proxy = await startRecordingProxy({ upstream: 'http://127.0.0.1:3000/mcp' })
 * // point the client at proxy.url, use it, then:
 * await writeGolden('goldens/ide-session.jsonl', await proxy.close())
 */
export async function startRecordingProxy(options: RecordingProxyOptions): Promise<RecordingProxy> {
  const upstream = new URL(options.upstream);
  const sink = new FrameSink();
  const activity = new SessionActivity({
    onEnd: (id, reason) => options.onSessionEnd?.(id, reason),
    ...(options.sessionIdleMs !== undefined && { idleMs: options.sessionIdleMs }),
    ...(options.timers !== undefined && { timers: options.timers }),
  });
  const watched = new WeakSet<object>();
  const server = createServer((req: IncomingMessage, res) => {
    const exchange = sink.nextExchange();
    const asked = req.headers['mcp-session-id'];
    activity.opened(exchange, typeof asked === 'string' ? asked : undefined, req.socket);
    if (!watched.has(req.socket)) {
      watched.add(req.socket);
      req.socket.once('close', () => activity.disconnected(req.socket));
    }
    res.once('close', () => activity.closed(exchange));
    sink.request(exchange, req.method ?? 'GET', req.url ?? '/', headerRecord(req.headers));
    const requestTap = sink.body(exchange, 'client->server', bodyKindOf(req.headers['content-type']));
    const modern =
      req.headers['mcp-method'] !== undefined || req.headers['mcp-protocol-version'] === MODERN_PROTOCOL_VERSION;
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (upRes) => {
        sink.response(exchange, upRes.statusCode ?? 502, headerRecord(upRes.headers));
        const given = upRes.headers['mcp-session-id'];
        activity.answered(exchange, typeof given === 'string' ? given : undefined);
        const responseTap = sink.body(exchange, 'server->client', bodyKindOf(upRes.headers['content-type']));
        res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, upRes.rawHeaders);
        res.flushHeaders();
        upRes.on('data', (chunk: Buffer) => {
          responseTap.read(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          res.write(chunk);
        });
        upRes.on('end', () => {
          responseTap.end('complete');
          res.end();
          if (req.method === 'DELETE' && typeof asked === 'string') activity.deleted(asked);
        });
        upRes.on('error', (error) => {
          responseTap.end('error', error.message);
          res.destroy();
        });
        res.on('close', () => {
          if (!res.writableFinished) {
            // A modern-era client cancels by closing the stream: that is an event of its own.
            if (modern) sink.push({ dir: 'client->server', channel: 'close', exchange });
            responseTap.end('cancelled');
            upRes.destroy();
          }
        });
      },
    );
    forward.on('error', (error) => {
      sink.push({ dir: 'server->client', channel: 'end', exchange, reason: 'error', error: error.message });
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`[mcp-golden] recording proxy could not reach ${upstream.href}: ${error.message}\n`);
      } else {
        res.destroy();
      }
    });
    req.on('data', (chunk: Buffer) => {
      requestTap.read(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      forward.write(chunk);
    });
    req.on('end', () => {
      requestTap.end('complete');
      forward.end();
    });
    req.on('error', () => forward.destroy());
  });
  const port = await listenLoopback(server, options.port);
  const url = new URL(upstream.href);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  const headerFor = (frames: readonly Frame[]): TranscriptHeader => {
    const messages = frames.filter((f) => f.dir === 'client->server').map(frameMessage);
    const init = messages.find((m) => m?.method === 'initialize');
    const asked = init && paramsOf(init).protocolVersion;
    // A session without initialize whose requests carry the per-request envelope is a modern one.
    const enveloped = init ? undefined : messages.map((m) => m && envelopeVersion(m)).find((v) => v !== undefined);
    return {
      format: GOLDEN_FORMAT,
      era: enveloped === undefined ? 'legacy' : 'modern',
      protocolVersion: enveloped ?? (typeof asked === 'string' ? asked : DEFAULT_PROTOCOL_VERSION),
      transport: 'http',
      target: upstream.href,
      recorder: RECORDER,
      notes: { recordedBy: 'recording proxy' },
    };
  };
  const transcript = (): Transcript => {
    const frames = [...sink.snapshot()];
    return redactTranscript({ header: headerFor(frames), frames }, options.redact);
  };
  return {
    url: url.href,
    port,
    originEpochMs: sink.originEpochMs,
    transcript,
    async close() {
      activity.stop();
      await closeNow(server);
      const finished = sink.finish(headerFor(sink.snapshot()));
      return redactTranscript(finished, options.redact);
    },
  };
}
