/**
 * `text.split(/(\r\n|\r|\n)/)`: the lines of `text` with the terminator after each between them
 * (line, end, line, end, ..., last line). Line ends are found with native `indexOf` searches, so a
 * long line costs a memory scan, not a regular-expression step per character.
 */
export function splitLineEnds(text: string): string[] {
  const parts: string[] = [];
  let at = 0;
  let lf = text.indexOf('\n');
  let cr = text.indexOf('\r');
  while (lf >= 0 || cr >= 0) {
    const end = cr >= 0 && (lf < 0 || cr < lf) ? cr : lf;
    const width = end === cr && text.charCodeAt(cr + 1) === 0x0a ? 2 : 1;
    parts.push(text.slice(at, end), text.slice(end, end + width));
    at = end + width;
    if (lf >= 0 && lf < at) lf = text.indexOf('\n', at);
    if (cr >= 0 && cr < at) cr = text.indexOf('\r', at);
  }
  parts.push(text.slice(at));
  return parts;
}
