import { randomBytes } from 'node:crypto';

/** One part of a hand-built multipart/form-data body, so tests control every header byte. */
export interface Part {
  name: string;
  /** Omitted: a plain field. The raw value goes into the header as given (tests send hostile names). */
  filename?: string;
  /** Omitted: no Content-Type header on the part. */
  contentType?: string;
  data: Buffer | string;
}

export function multipartBody(parts: Part[]): { body: Buffer; headers: Record<string, string> } {
  const boundary = `----tt${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.contentType !== undefined) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(
      Buffer.from(`${head}\r\n`, 'utf8'),
      Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data, 'utf8'),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Every byte value 0-255, twice over in different orders: a round trip must return it exactly. */
export function allBytes(): Buffer {
  const up = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  const down = Buffer.from(Array.from({ length: 256 }, (_, i) => 255 - i));
  return Buffer.concat([up, Buffer.from('\r\n--\r\n'), down]);
}
