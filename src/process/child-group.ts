import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a group gets between SIGTERM and SIGKILL. */
export const DEFAULT_GRACE_MS = 2000;
/** How long to wait for the group to vanish after SIGKILL before giving up on it. */
const KILL_WAIT_MS = 2000;

/** A child process that leads its own process group, stopped as a group. */
export interface ChildGroup {
  readonly child: ChildProcess;
  /** How the child is named in messages. */
  readonly label: string;
  /** Why the group leader exited, if it did. */
  exited(): string | undefined;
  /** True while any process of the group lives (the leader may have exited, leaving children). */
  alive(): boolean;
  /** Resolves when the group leader has exited (or could not start). */
  readonly exit: Promise<void>;
  /**
   * Stops every process of the group: SIGTERM, up to `graceMs` for the group to empty, then
   * SIGKILL; its pipes are closed. Returns within `graceMs` + 2 s whatever the processes do.
   */
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<ChildGroup>();

/** True while `kill(-pgid, 0)` finds the group: cheap, but a zombie counts as a member. */
function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * True while any process other than a zombie is in process group `pgid`. `kill(-pgid, 0)` alone
 * is not enough: an orphan the container's init never reaps stays a zombie in the group forever,
 * so when the group exists, `/proc` is read (a full scan: call it sparingly).
 */
export function groupAlive(pgid: number): boolean {
  if (!groupExists(pgid)) return false;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after "(comm) ": state, ppid, pgrp, ...
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
  }
  return false;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is already empty.
  }
}

/**
 * Waits up to `ms` for the group to empty: polls the cheap test, and scans `/proc` for zombies-only
 * groups after 50 ms, then at doubling intervals up to every 500 ms (a group whose orphan lingers
 * as a zombie, as nginx's worker does, is then seen gone within ~50 ms, not 500).
 */
async function waitEmpty(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  let scanEvery = 50;
  let nextScan = Date.now() + scanEvery;
  while (groupExists(pgid)) {
    if (Date.now() >= nextScan || Date.now() >= deadline) {
      if (!groupAlive(pgid)) return true;
      if (Date.now() >= deadline) return false;
      scanEvery = Math.min(500, scanEvery * 2);
      nextScan = Date.now() + scanEvery;
    }
    await sleep(25);
  }
  return true;
}

/**
 * Spawns `command` as the leader of a new process group (so a shell's children, backgrounded
 * or not, stop with it) and registers it, so {@link stopAllGroups} can stop it on a signal.
 */
export function spawnGroup(
  command: string,
  args: readonly string[],
  options: Omit<SpawnOptions, 'detached'> & { readonly label?: string } = {},
): ChildGroup {
  const { label = [command, ...args].join(' '), ...spawnOptions } = options;
  const child = spawn(command, [...args], { ...spawnOptions, detached: true });
  let exitReason: string | undefined;
  let stopping: Promise<void> | undefined;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exitReason ??= signal ? `was killed by ${signal}` : `exited with code ${code}`;
      resolve();
    });
    child.once('error', (error) => {
      exitReason ??= `could not start (${error.message})`;
      resolve();
    });
  });
  const group: ChildGroup = {
    child,
    label,
    exit,
    exited: () => exitReason,
    alive: () => child.pid !== undefined && groupAlive(child.pid),
    stop(graceMs = DEFAULT_GRACE_MS) {
      stopping ??= (async () => {
        const pgid = child.pid;
        if (pgid !== undefined && groupExists(pgid)) {
          signalGroup(child, 'SIGTERM');
          if (!(await waitEmpty(pgid, graceMs))) {
            signalGroup(child, 'SIGKILL');
            await waitEmpty(pgid, KILL_WAIT_MS);
          }
        }
        // A grandchild that escaped the group may still hold the pipes: close our ends, or the
        // event loop (and the CLI) would wait on them forever.
        child.stdin?.destroy();
        child.stdout?.destroy();
        child.stderr?.destroy();
        child.unref();
        live.delete(group);
      })();
      return stopping;
    },
  };
  live.add(group);
  // Work still running beside a stop-everything (a check's rows open sessions concurrently) must
  // not leave a process behind the stop: one started meanwhile is stopped at once.
  if (stoppingAll > 0 || sealed) void group.stop(0);
  return group;
}

/** How many {@link stopAllGroups} calls are under way. */
let stoppingAll = 0;
/** Set by a final {@link stopAllGroups}: the process is exiting, so every later group is stopped at once. */
let sealed = false;

/**
 * Stops every group started by {@link spawnGroup} that is still registered, in parallel, and any
 * group started while it runs. `final` (the process is about to exit) also stops at once every
 * group started afterwards.
 */
export async function stopAllGroups(graceMs = DEFAULT_GRACE_MS, { final = false } = {}): Promise<void> {
  stoppingAll += 1;
  if (final) sealed = true;
  try {
    while (live.size > 0) await Promise.allSettled([...live].map((group) => group.stop(graceMs)));
  } finally {
    stoppingAll -= 1;
  }
}

/** How many groups are registered and not yet stopped. */
export function liveGroupCount(): number {
  return live.size;
}
