import { setTimeout as sleep } from 'node:timers/promises';
/**
 * Adversarial ways to cut replayed SSE bytes, to prove a gateway or client reassembles streams
 * correctly. All off by default: the replay is then byte-exact.
 */
export interface ChunkingOptions {
  /** Write each event in this many pieces (2 or more), as separate reads. @default 1 */
  readonly splitEvents?: number;
  /**
   * Cut each event inside its first multi-byte UTF-8 character, when it has one; `'every'` inside
   * every one, so each such character straddles two writes. @default false
   */
  readonly splitUtf8?: boolean | 'every';
  /** End SSE lines with CRLF instead of LF. @default false */
  readonly crlf?: boolean;
  /** End SSE lines with a lone CR (the SSE spec allows it; parsers that split on `\n` never see an event). @default false */
  readonly cr?: boolean;
  /** Leave out every `event:` line, so events dispatch as the default `message` type. @default false */
  readonly noEventField?: boolean;
  /** Write each event's JSON pretty-printed, one `data:` line per line (a parser must join them with `\n`). @default false */
  readonly multilineData?: boolean;
  /** Write each event in writes of at most this many bytes, one turn of the loop apart. @default whole events */
  readonly writeBytes?: number;
  /** The `retry:` field (ms) the priming event carries. @default none */
  readonly primingRetryMs?: number;
  /** Write a `: keepalive` comment before every event. @default false */
  readonly keepAliveComments?: boolean;
  /** Write a priming event (an id and empty data) before the first event of each stream. @default false */
  readonly primingEvents?: boolean;
  /** Pause between the pieces of one event, in ms, so they arrive as separate reads. @default 2 */
  readonly gapMs?: number;
}

const encoder = new TextEncoder();

/** Offsets just after the lead byte of each multi-byte UTF-8 character (the first only, unless `every`). */
function multiByteCuts(bytes: Uint8Array, every: boolean): number[] {
  const cuts: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    if ((bytes[i] as number) >= 0xc0) {
      cuts.push(i + 1);
      if (!every) break;
    }
  }
  return cuts;
}

/** The event with its `data:` lines re-written: JSON pretty-printed over several lines, each its own `data:`. */
function multilineEvent(raw: string): string {
  const lines = raw.split(/\r\n|\r|\n/);
  const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(l.startsWith('data: ') ? 6 : 5));
  if (data.length === 0) return raw;
  let pretty: string;
  try {
    pretty = JSON.stringify(JSON.parse(data.join('\n')), null, 1);
  } catch {
    return raw;
  }
  const rest = lines.filter((l) => l !== '' && !l.startsWith('data:'));
  return `${[...rest, ...pretty.split('\n').map((l) => `data: ${l}`)].join('\n')}\n\n`;
}

/** The event's text as the framing options write it, before any cutting. */
function framedText(raw: string, options: ChunkingOptions, isFirst: boolean, primingId: string): string {
  let text = options.multilineData ? multilineEvent(raw) : raw;
  if (options.noEventField) text = text.replace(/^event:[^\r\n]*(\r\n|\r|\n)/gm, '');
  if (options.keepAliveComments) text = `: keepalive\n\n${text}`;
  if (options.primingEvents && isFirst) {
    const retry = options.primingRetryMs === undefined ? '' : `retry: ${options.primingRetryMs}\n`;
    text = `id: ${primingId}\n${retry}data: \n\n${text}`;
  }
  const end = options.cr ? '\r' : options.crlf ? '\r\n' : undefined;
  return end ? text.replace(/\r\n|\r|\n/g, end) : text;
}

/** True when any option changes the bytes or their cutting. */
export function isAdversarial(options: ChunkingOptions | undefined): boolean {
  return Boolean(
    options &&
      ((options.splitEvents ?? 1) > 1 ||
        options.splitUtf8 ||
        options.crlf ||
        options.cr ||
        options.noEventField ||
        options.multilineData ||
        options.writeBytes !== undefined ||
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
  const bytes = encoder.encode(framedText(raw, options, isFirst, primingId));
  const cuts = new Set<number>();
  if (options.splitUtf8) for (const cut of multiByteCuts(bytes, options.splitUtf8 === 'every')) cuts.add(cut);
  const pieces = Math.max(1, Math.floor(options.splitEvents ?? 1));
  for (let p = 1; p < pieces; p++) cuts.add(Math.floor((bytes.length * p) / pieces));
  const size = options.writeBytes === undefined ? 0 : Math.max(1, Math.floor(options.writeBytes));
  for (let at = size; size > 0 && at < bytes.length; at += size) cuts.add(at);
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
  const gap = options.gapMs ?? (options.writeBytes === undefined ? 2 : 0);
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
          // Many small writes (1 KB of 8 MiB) go one turn apart rather than a timer's ms apart.
          if (i > 0) await (gap > 0 ? sleep(gap) : new Promise(setImmediate));
          sink.write(piece);
        }
      });
    },
    end() {
      chain = chain.then(() => sink.end());
    },
  };
}
