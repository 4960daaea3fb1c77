import { describe, expect, it } from 'vitest';
import { contentDisposition, isMediaType, MAX_FILENAME_LENGTH, sanitizeFilename } from './filename.ts';

describe('sanitizeFilename', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\boot.ini', 'boot.ini'],
    ['dir/sub/', 'file'],
    ['.', 'file'],
    ['..', 'file'],
    ['', 'file'],
    [undefined, 'file'],
    ['a\u0000b\u0007c\u007f\u0085.txt', 'abc.txt'],
    ['invoice\u202efdp.exe', 'invoicefdp.exe'],
    ['\ufeffbom.txt', 'bom.txt'],
    ['  padded name.md  ', 'padded name.md'],
    ['.env', '.env'],
    ['Cafe\u0301.txt', 'Café.txt'],
  ])('%j -> %j', (raw, expected) => {
    expect(sanitizeFilename(raw)).toBe(expected);
  });

  it('caps the length in characters, keeping a short extension', () => {
    const long = `${'é'.repeat(400)}.tar.gz`;
    const cleaned = sanitizeFilename(long);
    expect([...cleaned]).toHaveLength(MAX_FILENAME_LENGTH);
    expect(cleaned.endsWith('.gz')).toBe(true);
    expect([...sanitizeFilename('x'.repeat(300))]).toHaveLength(MAX_FILENAME_LENGTH);
  });
});

describe('contentDisposition (RFC 6266 / RFC 8187)', () => {
  it('percent-encodes the UTF-8 name outside attr-char and gives an ASCII fallback without quotes or backslashes', () => {
    expect(contentDisposition('a "quoted" \\ name.txt')).toBe(
      `attachment; filename="a _quoted_ _ name.txt"; filename*=UTF-8''a%20%22quoted%22%20%5C%20name.txt`,
    );
    expect(contentDisposition("it's (1)*.txt")).toBe(
      `attachment; filename="it's (1)*.txt"; filename*=UTF-8''it%27s%20%281%29%2A.txt`,
    );
    expect(contentDisposition('日本.txt')).toBe(
      `attachment; filename="__.txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.txt`,
    );
  });
});

describe('isMediaType', () => {
  it.each([
    ['application/pdf', true],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', true],
    ['image/svg+xml', true],
    ['text', false],
    ['text/plain; charset=utf-8', false],
    ['a/b/c', false],
    ['', false],
  ])('%j -> %j', (value, expected) => {
    expect(isMediaType(value)).toBe(expected);
  });
});
