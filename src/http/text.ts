/**
 * Text that shows nothing: whitespace, format characters (zero-width space and joiners, word
 * joiner, BOM, soft hyphen, bidi marks), the combining grapheme joiner, Hangul fillers and the
 * blank Braille pattern. A title made only of these renders as nothing, so it is blank.
 */
const INVISIBLE_ONLY = /^[\s\p{Cf}\u034f\u115f\u1160\u3164\uffa0\u2800]*$/u;

export const isBlank = (text: string): boolean => INVISIBLE_ONLY.test(text);
