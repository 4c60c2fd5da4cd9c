/**
 * Characters a terminal draws as nothing, as a space, or on top of their neighbour: controls,
 * format characters (BOM, zero-width joiners, bidi marks), line and paragraph separators (U+2028,
 * U+2029), spaces other than U+0020, combining marks, and lone surrogates.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{M}]|(?! )\p{Zs}|\p{Cs}/gu;

const escapeChar = (char: string): string => {
  const code = char.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/**
 * The text with every invisible or combining character written as a `\uXXXX` escape, so two
 * strings that differ only there (NFC vs NFD, a BOM, U+2028, a zero-width space) print differently.
 * Newlines and tabs are kept when `keepLayout` is set (multi-line canonical text).
 *
 * @example
 * visibleText('cafe\u0301') // 'cafe\\u0301'
 */
export function visibleText(text: string, keepLayout = false): string {
  return text.replace(INVISIBLE, (char) => (keepLayout && (char === '\n' || char === '\t') ? char : escapeChar(char)));
}

/**
 * A note for two different strings that read the same to a person: the same text in another
 * Unicode normalisation form (`NFC` vs `NFD`), or the same but for invisible characters.
 * `undefined` when they differ visibly.
 */
export function lookAlikeNote(expected: string, actual: string): string | undefined {
  if (expected === actual) return undefined;
  if (expected.normalize('NFC') === actual.normalize('NFC')) {
    const form = (s: string): string =>
      s === s.normalize('NFC') ? 'NFC' : s === s.normalize('NFD') ? 'NFD' : 'partly decomposed';
    return `the same text in another Unicode normalisation form (expected ${form(expected)}, got ${form(actual)})`;
  }
  const bare = (s: string): string => s.replace(INVISIBLE, '');
  if (bare(expected) === bare(actual)) return 'the same text but for invisible characters (escaped above)';
  return undefined;
}
