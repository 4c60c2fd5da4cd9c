import { join } from 'node:path';
import { writeGolden } from '../store/golden-file.js';
import type { Frame, Transcript } from '../transcript/frame.js';
import { sessionGolden, splitByEra } from './session-golden.js';
import { splitSessionsById } from './split-sessions.js';

/** How long after a session's DELETE its golden is written: the server ends that session's GET stream meanwhile. */
export const SESSION_END_SETTLE_MS = 200;

const isServerMessage = (frame: Frame): boolean =>
  frame.dir === 'server->client' && (frame.channel === 'json' || frame.channel === 'sse' || frame.channel === 'stdio');

/**
 * Writes a proxy's recording as one golden per client session into `out`: a session as soon as it
 * ends, the others when the proxy stops; each file atomically (a temporary file renamed), each
 * exchange once (a session used again after it ended goes on in a golden of its own).
 */
export class SessionGoldens {
  /** The exchanges written so far, by number. */
  private readonly written = new Set<number>();
  private readonly stamp = new Date().toISOString().replace(/[:.]/g, '-');
  private count = 0;
  private queue: Promise<unknown> = Promise.resolve();
  /** The files written so far, in order. */
  readonly files: string[] = [];

  constructor(
    private readonly out: string,
    private readonly prefix: string,
    private readonly target: string,
    private readonly log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  ) {}

  /** Writes the golden of session `id` (`''`: the exchanges of no session) unless it was written. */
  writeSession(transcript: Transcript, id: string): Promise<void> {
    return this.enqueue(transcript, (key) => key === id);
  }

  /** Writes every session not written yet. */
  writeRest(transcript: Transcript): Promise<void> {
    return this.enqueue(transcript, () => true);
  }

  private async writeOne(part: Transcript): Promise<void> {
    // A session the server never answered (it could not be reached, or not started) is no golden.
    if (!part.frames.some(isServerMessage)) {
      this.log(`[mcp-golden] not recorded: a session the server never answered`);
      return;
    }
    const session = sessionGolden(part);
    if (!session) {
      this.log(`[mcp-golden] not recorded: a session that only asked which protocol version the server speaks`);
      return;
    }
    const path = join(this.out, `${this.prefix}-${this.stamp}-${++this.count}.jsonl`);
    await writeGolden(path, session);
    this.files.push(path);
    this.log(`[mcp-golden] recorded ${path} (${session.frames.length} frames)`);
  }

  private enqueue(transcript: Transcript, wanted: (key: string) => boolean): Promise<void> {
    const next = this.queue.then(async () => {
      const sessions = splitSessionsById({ ...transcript, header: { ...transcript.header, target: this.target } });
      for (const [key, split] of sessions) {
        if (!wanted(key)) continue;
        const frames = split.frames.filter((f) => !this.written.has(f.exchange));
        if (frames.length === 0) continue;
        for (const frame of frames) this.written.add(frame.exchange);
        // One golden per era: a stateless dual-era server gives neither era's requests a session id.
        for (const part of splitByEra({ ...split, frames })) await this.writeOne(part);
      }
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}
