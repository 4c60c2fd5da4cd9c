/** The index of the first character where two strings differ (the shorter length when one is a prefix of the other). */
export function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}
