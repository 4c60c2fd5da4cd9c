import { describe, expect, test } from 'vitest';
import { groupAlive, liveGroupCount, spawnGroup, stopAllGroups } from './child-group.js';

const waitFor = async (check: () => boolean, ms: number): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
};

describe('spawnGroup', () => {
  test('stops a group that ignores SIGTERM with SIGKILL after the grace, children included', async () => {
    // The shell ignores TERM and so do the children it starts (an ignored signal is inherited).
    const group = spawnGroup('/bin/sh', ['-c', 'trap "" TERM; sleep 60 & sleep 60 & echo up; wait'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    await new Promise((resolve) => group.child.stdout?.once('data', resolve));
    const pgid = group.child.pid as number;
    expect(groupAlive(pgid)).toBe(true);
    const started = Date.now();
    await group.stop(300);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(groupAlive(pgid)).toBe(false);
    expect(group.exited()).toBe('was killed by SIGKILL');
  });

  test('a leader that exits leaves its backgrounded child alive in the group until stopped', async () => {
    const group = spawnGroup('/bin/sh', ['-c', 'sleep 60 & exit 0'], { stdio: 'ignore' });
    await group.exit;
    expect(group.exited()).toBe('exited with code 0');
    expect(group.alive()).toBe(true);
    await group.stop(1000);
    expect(group.alive()).toBe(false);
  });

  test('stopAllGroups stops every registered group', async () => {
    const before = liveGroupCount();
    const groups = [1, 2, 3].map(() => spawnGroup('sleep', ['60'], { stdio: 'ignore' }));
    expect(liveGroupCount()).toBe(before + 3);
    await stopAllGroups(1000);
    await waitFor(() => groups.every((g) => g.exited() !== undefined), 2000);
    expect(groups.map((g) => g.exited())).toEqual([
      'was killed by SIGTERM',
      'was killed by SIGTERM',
      'was killed by SIGTERM',
    ]);
    expect(liveGroupCount()).toBe(0);
  });

  test('a group started while stopAllGroups runs is stopped too, not left behind', async () => {
    const first = spawnGroup('/bin/sh', ['-c', 'trap "" TERM; echo up; sleep 60'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    await new Promise((resolve) => first.child.stdout?.once('data', resolve));
    const stopping = stopAllGroups(300);
    // Spawned during the 300 ms grace the first group takes, as a concurrent row would.
    await new Promise((r) => setTimeout(r, 50));
    const late = spawnGroup('sleep', ['60'], { stdio: 'ignore' });
    await stopping;
    await waitFor(() => late.exited() !== undefined, 2000);
    expect(first.exited()).toBe('was killed by SIGKILL');
    expect(late.exited()).toMatch(/^was killed by SIG(TERM|KILL)$/);
    expect(liveGroupCount()).toBe(0);
    // Once the stop is over, groups start and live as usual.
    const after = spawnGroup('sleep', ['60'], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 100));
    expect(after.alive()).toBe(true);
    await after.stop(1000);
  });
});
