/**
 * Verifying tasktracker webhook deliveries. Every delivery is a POST carrying:
 *   X-Service-Timestamp: Unix seconds, as a decimal string (fresh on every attempt)
 *   X-Service-Signature: sha256=<hex HMAC-SHA256 of "{timestamp}.{raw body}">
 *   X-Service-Event-Id:  the envelope `id`: deduplicate on it (retries and replays repeat it)
 * The HMAC key is the endpoint's whole signing secret (`whsec_...`) as UTF-8.
 *
 * Verify over the raw request bytes exactly as received: a body parsed and re-serialized
 * (key order, whitespace, unicode escapes) no longer matches its signature.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The consumer-side tolerance between the signed timestamp and the local clock, in seconds. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export const SIGNATURE_HEADER = 'x-service-signature';
export const TIMESTAMP_HEADER = 'x-service-timestamp';
export const EVENT_ID_HEADER = 'x-service-event-id';
export const DELIVERY_ID_HEADER = 'x-service-delivery-id';

const SIGNATURE_FORMAT = /^sha256=[0-9a-f]{64}$/;
const TIMESTAMP_FORMAT = /^[0-9]{1,15}$/;

/** Raw request bytes as a framework hands them over. */
export type RawBody = Uint8Array | string;

/** `sha256=<hex>` over `{timestamp}.{rawBody}`. */
export function computeSignature(secret: string, timestamp: string, rawBody: RawBody): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex')}`;
}

/**
 * Constant-time comparison of a received signature with the expected one. The format is
 * checked first: `Buffer.from(hex, 'hex')` silently drops trailing garbage, and
 * `timingSafeEqual` throws on a length mismatch.
 */
export function signatureMatches(secret: string, timestamp: string, rawBody: RawBody, signature: string): boolean {
  if (!SIGNATURE_FORMAT.test(signature)) return false;
  const expected = Buffer.from(computeSignature(secret, timestamp, rawBody), 'utf8');
  return timingSafeEqual(expected, Buffer.from(signature, 'utf8'));
}

export type VerifyFailure = 'missing_headers' | 'malformed_timestamp' | 'stale_timestamp' | 'bad_signature';

export type VerifyResult = { valid: true } | { valid: false; reason: VerifyFailure };

export interface VerifyOptions {
  /** The endpoint's signing secret, shown once when the endpoint was created. */
  secret: string;
  /** Default 300. */
  toleranceSeconds?: number;
  /** The local clock in Unix seconds; defaults to now. */
  nowSeconds?: number;
}

export interface VerifyInput extends VerifyOptions {
  /** The request body exactly as received. */
  rawBody: RawBody;
  /** Value of X-Service-Signature. */
  signature: string | undefined;
  /** Value of X-Service-Timestamp. */
  timestamp: string | undefined;
}

/**
 * Checks a delivery: both headers present, timestamp within the tolerance of the local clock
 * (rejecting replays of captured requests), and the signature over the raw bytes.
 */
export function verifyWebhook(input: VerifyInput): VerifyResult {
  const { signature, timestamp } = input;
  if (signature === undefined || timestamp === undefined) return { valid: false, reason: 'missing_headers' };
  if (!TIMESTAMP_FORMAT.test(timestamp)) return { valid: false, reason: 'malformed_timestamp' };
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
    return { valid: false, reason: 'stale_timestamp' };
  }
  if (!signatureMatches(input.secret, timestamp, input.rawBody, signature))
    return { valid: false, reason: 'bad_signature' };
  return { valid: true };
}

/** Request headers as Node (`IncomingHttpHeaders`, lowercase names) or fetch (`Headers`) give them. */
export type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

/** One header value; a repeated header counts as its first value. */
export function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (typeof headers.get === 'function')
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** `verifyWebhook` reading the signature and timestamp from the request headers. */
export function verifyRequest(headers: HeaderSource, rawBody: RawBody, options: VerifyOptions): VerifyResult {
  return verifyWebhook({
    ...options,
    rawBody,
    signature: headerValue(headers, SIGNATURE_HEADER),
    timestamp: headerValue(headers, TIMESTAMP_HEADER),
  });
}
