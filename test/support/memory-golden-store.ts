import { dirname, join } from 'node:path';
import type { GoldenStore } from 'mcp-golden/vitest';

/** A golden store in memory: files by absolute path; folders are implied by the paths. */
export class MemoryGoldenStore implements GoldenStore {
  readonly files = new Map<string, string>();

  async read(path: string): Promise<string | undefined> {
    return this.files.get(path);
  }

  async write(path: string, text: string): Promise<void> {
    this.files.set(path, text);
  }

  async remove(path: string): Promise<void> {
    this.files.delete(path);
  }

  async list(dir: string): Promise<string[]> {
    const names = new Set<string>();
    for (const path of this.files.keys()) {
      if (!path.startsWith(`${dir}/`)) continue;
      names.add(path.slice(dir.length + 1).split('/')[0] as string);
    }
    return [...names];
  }

  async removeEmptyDir(_dir: string): Promise<void> {}

  /** Paths under `dir`, sorted. */
  under(dir: string): string[] {
    return [...this.files.keys()].filter((p) => dirname(p).startsWith(dir) || p.startsWith(join(dir, ''))).sort();
  }
}
