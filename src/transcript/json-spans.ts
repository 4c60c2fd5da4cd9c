/** Where the value of a member sits in a JSON text. */
export interface JsonValueSpan {
  /** Member name. */
  readonly key: string;
  /** Object nesting depth of the member: 1 for the top-level object. */
  readonly depth: number;
  /** Offset of the value's first character. */
  readonly start: number;
  /** Offset just after the value's last character. */
  readonly end: number;
  /** JSON type of the value; objects and arrays are reported but not descended as values. */
  readonly type: 'string' | 'number' | 'literal' | 'object' | 'array';
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

function skipString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\\') i += 2;
    else if (ch === '"') return i + 1;
    else i++;
  }
  return i;
}

function skipWhitespace(text: string, start: number): number {
  let i = start;
  while (i < text.length && WHITESPACE.has(text[i] as string)) i++;
  return i;
}

function scalarEnd(text: string, start: number): number {
  let i = start;
  while (i < text.length && !WHITESPACE.has(text[i] as string) && !',}]'.includes(text[i] as string)) i++;
  return i;
}

/**
 * Finds the value spans of members named in `keys`, in one pass over the text, without parsing it
 * into objects, so a caller can rewrite those values and leave every other byte as it was.
 * Malformed text yields the spans found before the problem.
 */
export function findJsonValueSpans(text: string, keys: ReadonlySet<string>): JsonValueSpan[] {
  const spans: JsonValueSpan[] = [];
  const stack: ('object' | 'array')[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '{' || ch === '[') {
      stack.push(ch === '{' ? 'object' : 'array');
      i++;
    } else if (ch === '}' || ch === ']') {
      stack.pop();
      i++;
    } else if (ch === '"') {
      const end = skipString(text, i);
      const afterKey = skipWhitespace(text, end);
      if (stack.at(-1) === 'object' && text[afterKey] === ':') {
        const key = JSON.parse(text.slice(i, end)) as string;
        const valueStart = skipWhitespace(text, afterKey + 1);
        if (keys.has(key)) {
          const first = text[valueStart];
          const type =
            first === '"'
              ? 'string'
              : first === '{'
                ? 'object'
                : first === '['
                  ? 'array'
                  : first === 't' || first === 'f' || first === 'n'
                    ? 'literal'
                    : 'number';
          const valueEnd =
            type === 'string'
              ? skipString(text, valueStart)
              : type === 'object' || type === 'array'
                ? valueStart + 1
                : scalarEnd(text, valueStart);
          spans.push({ key, depth: stack.length, start: valueStart, end: valueEnd, type });
        }
        i = valueStart;
      } else {
        i = end;
      }
    } else {
      i++;
    }
  }
  return spans;
}

/** Replaces spans (non-overlapping) with new text, leaving every other character as it was. */
export function replaceSpans(
  text: string,
  replacements: readonly { start: number; end: number; text: string }[],
): string {
  const sorted = [...replacements].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const r of sorted) {
    out += text.slice(at, r.start) + r.text;
    at = r.end;
  }
  return out + text.slice(at);
}
