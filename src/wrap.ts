/**
 * Splits `text` into lines of at most `width` characters, at spaces (a longer word keeps its own line).
 *
 * @example
 * wrap('one two three', 7) // ['one two', 'three']
 */
export function wrap(text: string, width: number): string[] {
  const words = text.split(' ');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines.length > 0 ? lines : [''];
}
