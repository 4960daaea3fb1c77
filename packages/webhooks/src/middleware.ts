/**
 * Framework glue: read the raw bytes, verify them, parse the envelope, and answer the sender
 * with a non-2xx status (which makes it retry later) when anything is wrong.
 */
import {
  DELIVERY_ID_HEADER,
  headerValue,
  verifyRequest,
  type HeaderSource,
  type RawBody,
  type VerifyFailure,
} from './verify.js';
import type { WebhookEvent } from './events.js';

export interface VerifiedWebhook {
  /**
   * The parsed envelope. Typed as the events this version knows; a newer service may send
   * others (check `type` before reading `data`, or use createWebhookHandler's `on`).
   */
  event: WebhookEvent;
  /** The bytes as received (store these if you keep a copy: they are what was signed). */
  rawBody: Buffer;
  /** X-Service-Delivery-Id: the delivery in `GET /api/v1/webhooks/deliveries/`. */
  deliveryId: string | undefined;
}

export type RejectReason = VerifyFailure | 'malformed_body' | 'body_too_large';

/** A delivery refused before it reached your code; `status` is what to answer. */
export class WebhookRejectedError extends Error {
  readonly reason: RejectReason;
  readonly status: 400 | 401 | 413;

  constructor(reason: RejectReason) {
    super(`webhook rejected: ${reason}`);
    this.name = 'WebhookRejectedError';
    this.reason = reason;
    this.status = reason === 'bad_signature' ? 401 : reason === 'body_too_large' ? 413 : 400;
  }
}

export interface WebhookOptions {
  /** The endpoint's signing secret (`whsec_...`). */
  secret: string;
  /** Default 300. */
  toleranceSeconds?: number;
  /** The local clock in Unix seconds; defaults to the system clock. */
  now?: () => number;
  /** Largest body read from a stream, default 1 MiB (a delivery is at most that). */
  maxBodyBytes?: number;
}

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Verifies a delivery and parses its envelope; throws WebhookRejectedError. */
export function verifyWebhookRequest(
  headers: HeaderSource,
  rawBody: RawBody,
  options: WebhookOptions,
): VerifiedWebhook {
  const verdict = verifyRequest(headers, rawBody, {
    secret: options.secret,
    ...(options.toleranceSeconds !== undefined ? { toleranceSeconds: options.toleranceSeconds } : {}),
    ...(options.now ? { nowSeconds: options.now() } : {}),
  });
  if (!verdict.valid) throw new WebhookRejectedError(verdict.reason);
  const bytes =
    typeof rawBody === 'string'
      ? Buffer.from(rawBody, 'utf8')
      : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  let event: unknown;
  try {
    event = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new WebhookRejectedError('malformed_body');
  }
  if (!isEnvelope(event)) throw new WebhookRejectedError('malformed_body');
  return { event, rawBody: bytes, deliveryId: headerValue(headers, DELIVERY_ID_HEADER) };
}

function isEnvelope(value: unknown): value is WebhookEvent {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === 'string' && typeof v.type === 'string' && typeof v.data === 'object' && v.data !== null;
}

/** Reads a request stream whole, refusing more than `limitBytes`. */
export async function readRawBody(
  stream: AsyncIterable<Uint8Array | string>,
  limitBytes = DEFAULT_MAX_BODY_BYTES,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
    size += bytes.length;
    if (size > limitBytes) throw new WebhookRejectedError('body_too_large');
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

const verified = new WeakMap<object, VerifiedWebhook>();

/** The delivery a middleware or hook of this package verified for this request. */
export function getVerifiedWebhook(request: object): VerifiedWebhook {
  const found = verified.get(request);
  if (!found)
    throw new Error('No verified webhook on this request: run webhookMiddleware or fastifyWebhookHook first.');
  return found;
}

/** The raw body a framework already read, if any: `rawBody` (Fastify plugins, some hosts) or a Buffer `body` (express.raw). */
function bufferedBody(request: { body?: unknown; rawBody?: unknown }): RawBody | undefined {
  for (const candidate of [request.rawBody, request.body]) {
    if (typeof candidate === 'string' || candidate instanceof Uint8Array) return candidate;
  }
  return undefined;
}

/** A body that a JSON parser already turned into an object cannot be verified any more. */
function parsedTooEarly(request: { body?: unknown }): boolean {
  return (
    request.body !== undefined &&
    request.body !== null &&
    typeof request.body === 'object' &&
    !(request.body instanceof Uint8Array)
  );
}

const MOUNT_ERROR =
  'The request body was parsed before webhook verification; verify the raw bytes instead (express.raw(), or a Fastify buffer content-type parser or rawBody plugin).';

/** The raw bytes of a request: what a framework already buffered, else read from the stream. */
export async function rawBodyOf(req: NodeRequestLike, maxBodyBytes?: number): Promise<RawBody> {
  const buffered = bufferedBody(req);
  if (buffered === undefined && parsedTooEarly(req)) throw new Error(MOUNT_ERROR);
  return buffered ?? (await readRawBody(req, maxBodyBytes));
}

export interface NodeRequestLike extends AsyncIterable<Uint8Array | string> {
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
  rawBody?: unknown;
}

export interface NodeResponseLike {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body: string): unknown;
}

/**
 * Connect-style middleware for Node's http server, Express (after `express.raw()` or with no
 * body parser) and anything else with `(req, res, next)`. A verified delivery goes on to
 * `next()`, readable with `getVerifiedWebhook(req)`; a refused one is answered here with
 * 400, 401 or 413 and `{"error": reason}`.
 */
export function webhookMiddleware(
  options: WebhookOptions,
): (req: NodeRequestLike, res: NodeResponseLike, next: (error?: unknown) => void) => void {
  return (req, res, next) => {
    const run = async () => {
      verified.set(req, verifyWebhookRequest(req.headers, await rawBodyOf(req, options.maxBodyBytes), options));
    };
    run().then(
      () => next(),
      (error: unknown) => {
        if (!(error instanceof WebhookRejectedError)) return next(error);
        res.statusCode = error.status;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ error: error.reason }));
      },
    );
  };
}

export interface FastifyRequestLike {
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
  rawBody?: unknown;
}

export interface FastifyReplyLike {
  code(statusCode: number): { send(payload?: unknown): unknown };
}

/**
 * A Fastify `preHandler` hook. Fastify parses JSON before hooks run, so give the route the raw
 * bytes: a `rawBody` plugin, or a content-type parser with `parseAs: 'buffer'` in the plugin
 * that holds the webhook route. Read the result with `getVerifiedWebhook(request)`.
 */
export function fastifyWebhookHook(
  options: WebhookOptions,
): (request: FastifyRequestLike, reply: FastifyReplyLike) => Promise<unknown> {
  return async (request, reply) => {
    const raw = bufferedBody(request);
    if (raw === undefined) throw new Error(MOUNT_ERROR);
    try {
      verified.set(request, verifyWebhookRequest(request.headers, raw, options));
      return undefined;
    } catch (error) {
      if (!(error instanceof WebhookRejectedError)) throw error;
      return reply.code(error.status).send({ error: error.reason });
    }
  };
}
