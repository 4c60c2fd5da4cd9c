import { readdirSync, readFileSync } from 'node:fs';

/** A process found on the machine. */
export interface FoundProcess {
  readonly pid: number;
  readonly command: string;
}

/**
 * Every live (non-zombie) process whose environment carries `MCP_GOLDEN_RUN_MARK=<mark>`: the
 * CLI under test and everything it started inherit it, even processes that left its group.
 */
export function processesOfRun(mark: string): FoundProcess[] {
  const needle = `MCP_GOLDEN_RUN_MARK=${mark}\0`;
  const found: FoundProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (!`${readFileSync(`/proc/${entry}/environ`, 'latin1')}\0`.includes(needle)) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      found.push({ pid: Number(entry), command });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** Kills whatever is left of a run, so a failing test leaves nothing behind either. */
export function killRun(mark: string): void {
  for (const { pid } of processesOfRun(mark)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** A fresh mark for one run. */
export const newMark = (): string => `run-${process.pid}-${Math.random().toString(36).slice(2)}`;
