/**
 * A count and its noun, singular for one: `counted(1, 'block')` is "1 block", `counted(2, 'block')`
 * "2 blocks"; `plural` for a noun that does not take an s.
 */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}
