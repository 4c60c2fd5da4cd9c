import { describe, expect, test } from 'vitest';
import { findInterruptedWrites, temporaryNameOf } from './interrupted-writes.js';

describe('interrupted writes', () => {
  test('the temporary name writeFileAtomic uses is recognised, with its target and writer', () => {
    const temp = temporaryNameOf('/g/chatty.jsonl', 4242, 'deadbeef');
    expect(temp).toBe('/g/.chatty.jsonl.4242.deadbeef.tmp');
    expect(findInterruptedWrites('/g', ['.chatty.jsonl.4242.deadbeef.tmp', 'chatty.jsonl'], () => false)).toEqual([
      { path: temp, target: '/g/chatty.jsonl', pid: 4242 },
    ]);
  });

  test('a write still running in another process, and other dot files, are not interrupted writes', () => {
    const names = ['.chatty.jsonl.4242.deadbeef.tmp', '.gitkeep', 'x.tmp', '.a.jsonl.12.nothex!.tmp'];
    expect(findInterruptedWrites('/g', names, () => true)).toEqual([]);
    expect(findInterruptedWrites('/g', names, () => false).map((w) => w.pid)).toEqual([4242]);
  });

  test('this process is always running: its own write in progress is never reported', () => {
    expect(findInterruptedWrites('/g', [`.a.jsonl.${process.pid}.0123abcd.tmp`])).toEqual([]);
  });
});
