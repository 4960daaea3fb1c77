import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import {
  computeSignature,
  createWebhookHandler,
  fastifyWebhookHook,
  getVerifiedWebhook,
  verifyWebhook,
  verifyWebhookRequest,
  webhookMiddleware,
  WebhookRejectedError,
  type VerifiedWebhook,
} from '@tasktracker/webhooks';
import fc from 'fast-check';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SECRET = 'whsec_package_test';
const NOW = 1_795_000_000;
const now = () => NOW;
const envelope = (id: string) =>
  JSON.stringify({
    id,
    type: 'task.created',
    api_version: 'v1',
    occurred_at: '2026-11-21T10:15:30.123456Z',
    source: 'api',
    correlation_id: 'c',
    organization: { id: 1, slug: 'o', name: 'O' },
    actor: { id: 2, email: '', name: 'bot' },
    data: { task: { key: 'A-1' } },
  });
const signedHeaders = (body: string, timestamp = NOW, secret = SECRET): Record<string, string> => ({
  'content-type': 'application/json',
  'x-service-timestamp': String(timestamp),
  'x-service-signature': computeSignature(secret, String(timestamp), body),
  'x-service-event-id': 'evt_1',
  'x-service-delivery-id': '42',
});

describe('@tasktracker/webhooks: the signature check', () => {
  it('agrees with an independent HMAC for random bodies, secrets and timestamps, and refuses any other signature', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.string({ minLength: 1 }),
        fc.integer({ min: -300, max: 300 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex')),
        (body, secret, skew, other) => {
          const timestamp = String(NOW + skew);
          const hex = createHmac('sha256', Buffer.from(secret, 'utf8'))
            .update(Buffer.concat([Buffer.from(`${timestamp}.`), body]))
            .digest('hex');
          expect(
            verifyWebhook({ rawBody: body, secret, timestamp, signature: `sha256=${hex}`, nowSeconds: NOW }),
          ).toEqual({ valid: true });
          const forged = other === hex ? `sha256=${'0'.repeat(64)}` : `sha256=${other}`;
          expect(verifyWebhook({ rawBody: body, secret, timestamp, signature: forged, nowSeconds: NOW })).toEqual({
            valid: false,
            reason: 'bad_signature',
          });
        },
      ),
      { numRuns: 300, seed: 19 },
    );
  });

  it('parses strictly: uppercase hex, padding, other algorithms and trailing bytes are refused', () => {
    const body = envelope('evt_1');
    const good = computeSignature(SECRET, String(NOW), body);
    for (const signature of [
      good.toUpperCase(),
      `${good} `,
      ` ${good}`,
      `${good}0`,
      good.slice(0, -1),
      good.replace('sha256=', 'sha512='),
      good.replace('sha256=', ''),
      `${good},${good}`,
    ]) {
      expect(
        verifyWebhook({ rawBody: body, secret: SECRET, timestamp: String(NOW), signature, nowSeconds: NOW }),
      ).toEqual({ valid: false, reason: 'bad_signature' });
    }
    expect(
      verifyWebhook({ rawBody: body, secret: SECRET, timestamp: String(NOW), signature: good, nowSeconds: NOW }),
    ).toEqual({ valid: true });
  });

  it('verifyWebhookRequest reads fetch Headers or Node headers, parses the envelope, and names the status to answer', () => {
    const body = envelope('evt_7');
    const verified = verifyWebhookRequest(new Headers(signedHeaders(body)), new TextEncoder().encode(body), {
      secret: SECRET,
      now,
    });
    expect(verified.event).toMatchObject({ id: 'evt_7', type: 'task.created', data: { task: { key: 'A-1' } } });
    expect(verified.deliveryId).toBe('42');
    expect(verified.rawBody.toString()).toBe(body);
    const reject = (headers: Record<string, string>, raw: string) => {
      try {
        verifyWebhookRequest(headers, raw, { secret: SECRET, now });
      } catch (error) {
        expect(error).toBeInstanceOf(WebhookRejectedError);
        return { reason: (error as WebhookRejectedError).reason, status: (error as WebhookRejectedError).status };
      }
      throw new Error('accepted');
    };
    expect(reject(signedHeaders(body, NOW - 301), body)).toEqual({ reason: 'stale_timestamp', status: 400 });
    expect(reject(signedHeaders(body, NOW, 'whsec_other'), body)).toEqual({ reason: 'bad_signature', status: 401 });
    expect(reject({ 'content-type': 'application/json' }, body)).toEqual({ reason: 'missing_headers', status: 400 });
    expect(reject(signedHeaders('not json'), 'not json')).toEqual({ reason: 'malformed_body', status: 400 });
    expect(reject(signedHeaders('{"id": 5}'), '{"id": 5}')).toEqual({ reason: 'malformed_body', status: 400 });
  });

  it('loads as CommonJS too, with the same functions', () => {
    const required = createRequire(import.meta.url)('@tasktracker/webhooks') as typeof import('@tasktracker/webhooks');
    expect(required.computeSignature(SECRET, '1', 'x')).toBe(computeSignature(SECRET, '1', 'x'));
    expect(typeof required.webhookMiddleware).toBe('function');
  });
});

describe('webhookMiddleware on a real Node http server', () => {
  let server: http.Server;
  let base: string;
  const seen: VerifiedWebhook[] = [];
  let preParse: ((req: http.IncomingMessage & { body?: unknown }) => Promise<void>) | undefined;

  beforeAll(async () => {
    const verify = webhookMiddleware({ secret: SECRET, now, maxBodyBytes: 4096 });
    server = http.createServer(async (req: http.IncomingMessage & { body?: unknown }, res) => {
      await preParse?.(req);
      verify(req, res, (error) => {
        if (error) return res.writeHead(500).end(String((error as Error).message));
        seen.push(getVerifiedWebhook(req));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const post = (headers: Record<string, string>, body: string) => fetch(base, { method: 'POST', headers, body });

  it('passes a verified delivery on, and answers refused ones itself', async () => {
    preParse = undefined;
    const body = envelope('evt_http');
    expect((await post(signedHeaders(body), body)).status).toBe(204);
    expect(seen.at(-1)?.event.id).toBe('evt_http');

    const stale = await post(signedHeaders(body, NOW + 301), body);
    expect([stale.status, await stale.json()]).toEqual([400, { error: 'stale_timestamp' }]);
    const forged = await post(signedHeaders(body, NOW, 'whsec_guess'), body);
    expect([forged.status, await forged.json()]).toEqual([401, { error: 'bad_signature' }]);
    // Signed over different bytes than those sent: a re-serialized body.
    const reserialized = await post(signedHeaders(body), JSON.stringify(JSON.parse(body), null, 2));
    expect(reserialized.status).toBe(401);
    const big = envelope('x'.repeat(5000));
    const tooBig = await post(signedHeaders(big), big);
    expect([tooBig.status, await tooBig.json()]).toEqual([413, { error: 'body_too_large' }]);
    expect(seen).toHaveLength(1);
  });

  it('uses a Buffer body that express.raw() left, and refuses to guess from a parsed one', async () => {
    const body = envelope('evt_raw');
    preParse = async (req) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      req.body = Buffer.concat(chunks);
    };
    expect((await post(signedHeaders(body), body)).status).toBe(204);
    expect(seen.at(-1)?.event.id).toBe('evt_raw');

    preParse = async (req) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      req.body = JSON.parse(Buffer.concat(chunks).toString());
    };
    const parsed = await post(signedHeaders(body), body);
    expect(parsed.status).toBe(500);
    expect(await parsed.text()).toMatch(/parsed before webhook verification/);
  });
});

describe('fastifyWebhookHook on a real Fastify server', () => {
  const app = Fastify();
  const seen: string[] = [];

  beforeAll(async () => {
    await app.register(async (hooks) => {
      hooks.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      hooks.post('/events', { preHandler: fastifyWebhookHook({ secret: SECRET, now }) }, async (request, reply) => {
        seen.push(getVerifiedWebhook(request).event.id);
        return reply.code(204).send();
      });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  it('verifies the raw bytes before the handler runs', async () => {
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/events`;
    const body = envelope('evt_fastify');
    expect((await fetch(url, { method: 'POST', headers: signedHeaders(body), body })).status).toBe(204);
    const forged = await fetch(url, { method: 'POST', headers: signedHeaders(body, NOW, 'whsec_guess'), body });
    expect([forged.status, await forged.json()]).toEqual([401, { error: 'bad_signature' }]);
    const stale = await fetch(url, { method: 'POST', headers: signedHeaders(body, NOW - 1000), body });
    expect(stale.status).toBe(400);
    expect(seen).toEqual(['evt_fastify']);
  });
});

describe('createWebhookHandler: typed listeners behind the verifier, on a real http server', () => {
  const calls: string[] = [];
  let failNext = false;
  const handler = createWebhookHandler({ secret: SECRET, now })
    .on('task.created', (event) => {
      // `data.task` is a Task here: its key is typed.
      calls.push(`created ${event.data.task.key}`);
    })
    .on('task.created', async (event) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (failNext) throw new Error('database down');
      calls.push(`stored ${event.id}`);
    })
    .on('comment.created', (event) => void calls.push(`comment ${event.data.comment.id}`))
    .onAny((event) => void calls.push(`any ${event.type}`))
    .onUnknown((event) => void calls.push(`unknown ${event.type} ${JSON.stringify(event.data)}`));
  const server = http.createServer(handler.listener());
  let url: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const post = (body: string, headers = signedHeaders(body)) => fetch(url, { method: 'POST', headers, body });

  it('runs the listeners of the type in order, then onAny, and answers 204 once all succeeded', async () => {
    calls.length = 0;
    const response = await post(envelope('evt_typed'));
    expect([response.status, await response.text()]).toEqual([204, '']);
    expect(calls).toEqual(['created A-1', 'stored evt_typed', 'any task.created']);
  });

  it('an event of a type this version does not know reaches onUnknown only', async () => {
    calls.length = 0;
    const body = JSON.stringify({ ...JSON.parse(envelope('evt_new')), type: 'sprint.renamed', data: { sprint: 1 } });
    expect((await post(body)).status).toBe(204);
    expect(calls).toEqual(['unknown sprint.renamed {"sprint":1}']);
  });

  it('a listener that throws answers 500 (the service delivers it again later); a refused delivery runs nothing', async () => {
    calls.length = 0;
    failNext = true;
    const failed = await post(envelope('evt_fail'));
    failNext = false;
    expect([failed.status, await failed.json()]).toEqual([500, { error: 'handler_failed' }]);
    expect(calls).toEqual(['created A-1']);

    calls.length = 0;
    const body = envelope('evt_forged');
    const forged = await post(body, signedHeaders(body, NOW, 'whsec_guess'));
    expect([forged.status, await forged.json()]).toEqual([401, { error: 'bad_signature' }]);
    expect(calls).toEqual([]);
  });

  it('handle() verifies and dispatches for any framework; dispatch() serves a delivery verified elsewhere', async () => {
    calls.length = 0;
    const body = envelope('evt_handle');
    const delivery = await handler.handle(new Headers(signedHeaders(body)), body);
    expect(delivery.event.id).toBe('evt_handle');
    expect(await handler.dispatch(delivery)).toBe(3);
    expect(calls).toEqual([
      'created A-1',
      'stored evt_handle',
      'any task.created',
      'created A-1',
      'stored evt_handle',
      'any task.created',
    ]);
    await expect(handler.handle({}, body)).rejects.toMatchObject({ reason: 'missing_headers', status: 400 });
  });
});
