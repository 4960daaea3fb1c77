/**
 * Client-supplied file names are shown back to people and put in download headers, never used
 * as paths (files are stored under server-generated names). They are still cleaned so that
 * what is displayed is a plain name: no directories, no control or bidirectional-override
 * characters, bounded length.
 */
export const MAX_FILENAME_LENGTH = 255;
const FALLBACK_NAME = 'file';

// C0 and C1 controls, DEL, and the Unicode bidi embedding/override/isolate marks (which can make
// "exe.txt" display as "txt.exe") plus the BOM.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

export function sanitizeFilename(raw: string | undefined): string {
  if (!raw) return FALLBACK_NAME;
  // Only the last path segment, whichever separator the client's platform uses.
  const base = raw.normalize('NFC').split(/[/\\]/).pop() ?? '';
  const cleaned = base.replace(UNSAFE, '').trim();
  if (cleaned === '' || cleaned === '.' || cleaned === '..') return FALLBACK_NAME;
  const chars = [...cleaned];
  if (chars.length <= MAX_FILENAME_LENGTH) return cleaned;
  // Too long: keep a short extension so the name still says what the file is.
  const dot = cleaned.lastIndexOf('.');
  const extension = dot > 0 && [...cleaned.slice(dot)].length <= 16 ? [...cleaned.slice(dot)] : [];
  return [...chars.slice(0, MAX_FILENAME_LENGTH - extension.length), ...extension].join('');
}

/** RFC 8187 (ex-5987) `ext-value` encoding: UTF-8, percent-encoding everything outside attr-char. */
function encodeExtValue(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * `attachment` with the name twice (RFC 6266): an ASCII-only `filename` for old clients and the
 * exact name in `filename*=UTF-8''…`, which every current client prefers.
 */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeExtValue(filename)}`;
}

/** `type/subtype` made of RFC 9110 token characters; anything else cannot go back out in a header. */
const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]{1,127}\/[a-z0-9!#$&^_.+-]{1,127}$/;

export function isMediaType(value: string): boolean {
  return MEDIA_TYPE.test(value);
}
