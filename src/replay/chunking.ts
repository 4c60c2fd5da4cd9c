import { setTimeout as sleep } from 'node:timers/promises';
/**
 * Adversarial ways to cut replayed SSE bytes, to prove a gateway or client reassembles streams
 * correctly. All off by default: the replay is then byte-exact.
 */
export interface ChunkingOptions {
  /** Write each event in this many pieces (2 or more), as separate reads. @default 1 */
  readonly splitEvents?: number;
  /** Cut each event inside its first multi-byte UTF-8 character, when it has one. @default false */
  readonly splitUtf8?: boolean;
  /** End SSE lines with CRLF instead of LF. @default false */
  readonly crlf?: boolean;
  /** Write a `: keepalive` comment before every event. @default false */
  readonly keepAliveComments?: boolean;
  /** Write a priming event (an id and empty data) before the first event of each stream. @default false */
  readonly primingEvents?: boolean;
  /** Pause between the pieces of one event, in ms, so they arrive as separate reads. @default 2 */
  readonly gapMs?: number;
}

const encoder = new TextEncoder();

function firstMultiByteCut(bytes: Uint8Array): number | undefined {
  for (let i = 0; i < bytes.length; i++) {
    if ((bytes[i] as number) >= 0xc0) return i + 1;
  }
  return undefined;
}

/** True when any option changes the bytes or their cutting. */
export function isAdversarial(options: ChunkingOptions | undefined): boolean {
  return Boolean(
    options &&
      ((options.splitEvents ?? 1) > 1 ||
        options.splitUtf8 ||
        options.crlf ||
        options.keepAliveComments ||
        options.primingEvents),
  );
}

/**
 * The writes for one SSE event under the chunking options: each element is written separately,
 * `gapMs` apart.
 */
export function chunkSseEvent(
  raw: string,
  options: ChunkingOptions,
  isFirst: boolean,
  primingId = 'primed',
): Uint8Array[] {
  let text = options.crlf ? raw.replace(/\r\n|\r|\n/g, '\r\n') : raw;
  const end = options.crlf ? '\r\n' : '\n';
  if (options.keepAliveComments) text = `: keepalive${end}${end}${text}`;
  if (options.primingEvents && isFirst) text = `id: ${primingId}${end}data: ${end}${end}${text}`;
  const bytes = encoder.encode(text);
  const cuts = new Set<number>();
  if (options.splitUtf8) {
    const cut = firstMultiByteCut(bytes);
    if (cut !== undefined) cuts.add(cut);
  }
  const pieces = Math.max(1, Math.floor(options.splitEvents ?? 1));
  for (let p = 1; p < pieces; p++) cuts.add(Math.floor((bytes.length * p) / pieces));
  const sorted = [...cuts].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const cut of sorted) {
    out.push(bytes.subarray(at, cut));
    at = cut;
  }
  out.push(bytes.subarray(at));
  return out;
}

/** The subset of a response sink that chunking wraps. */
interface ByteSink {
  head(status: number, headers: Record<string, string>): void;
  write(bytes: Uint8Array | string): void;
  end(): void;
  onClose(listener: () => void): void;
}

/**
 * Wraps an SSE response so every event written is cut under the chunking options, the pieces
 * written `gapMs` apart in order, and the end held until the last piece is out. The priming
 * event gets `primingId`, which the replayer accepts as a `Last-Event-ID` (resume from the start).
 */
export function chunkingSink<S extends ByteSink>(sink: S, options: ChunkingOptions, primingId = 'primed'): ByteSink {
  const decoder = new TextDecoder();
  const gap = options.gapMs ?? 2;
  let chain: Promise<void> = Promise.resolve();
  let first = true;
  return {
    head: (status, headers) => sink.head(status, headers),
    onClose: (listener) => sink.onClose(listener),
    write(bytes) {
      const pieces = chunkSseEvent(
        typeof bytes === 'string' ? bytes : decoder.decode(bytes),
        options,
        first,
        primingId,
      );
      first = false;
      chain = chain.then(async () => {
        for (const [i, piece] of pieces.entries()) {
          if (i > 0) await sleep(gap);
          sink.write(piece);
        }
      });
    },
    end() {
      chain = chain.then(() => sink.end());
    },
  };
}
