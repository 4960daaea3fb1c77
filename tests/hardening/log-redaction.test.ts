import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { createLogger } from '../../src/logger.ts';
import { deliverDue } from '../../src/modules/webhooks/delivery/deliver-due.ts';
import { fanOut } from '../../src/modules/webhooks/delivery/fan-out.ts';
import type { Actor } from '../helpers/harness.ts';
import { createWebhookHarness, startReceiver, type Receiver, type WebhookHarness } from '../helpers/webhooks.ts';

/**
 * The production logger configuration (src/logger.ts) at its most verbose level, read through a
 * stream while requests carry bearer tokens and idempotency keys and a webhook endpoint is
 * created and delivered to: no line may contain a token, a key or a signing secret.
 */
describe('tokens and signing secrets never reach the logs', () => {
  let h: WebhookHarness;
  let app: FastifyInstance;
  let receiver: Receiver;
  let owner: Actor;
  const lines: string[] = [];
  let log: FastifyBaseLogger;

  beforeAll(async () => {
    h = await createWebhookHarness({ allowPrivate: true });
    receiver = await startReceiver();
    owner = await h.actor();
    log = createLogger('trace', { write: (line: string) => void lines.push(line) }) as unknown as FastifyBaseLogger;
    app = await buildApp(h.ctx, { logger: log });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
    await h.close();
  });

  it('requests with Authorization and Idempotency-Key, a webhook create and its delivery log none of them', async () => {
    const idempotencyKey = 'idem-key-7f3c9a1e-please-do-not-log';
    const bogusToken = 'tt_bogus_token_that_must_not_be_logged_0123456789';
    const send = (
      method: 'GET' | 'POST',
      url: string,
      token: string,
      payload?: unknown,
      headers: Record<string, string> = {},
    ) =>
      app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}`, ...headers },
        ...(payload ? { payload: payload as object } : {}),
      });

    const project = await send(
      'POST',
      '/api/v1/projects/',
      owner.token,
      { name: 'Logged', key: 'LOG' },
      { 'idempotency-key': idempotencyKey },
    );
    expect(project.statusCode).toBe(201);
    expect(
      (
        await send(
          'POST',
          '/api/v1/projects/',
          owner.token,
          { name: 'Logged', key: 'LOG' },
          { 'idempotency-key': idempotencyKey },
        )
      ).statusCode,
    ).toBe(201);
    expect((await send('GET', '/api/v1/me/', bogusToken)).statusCode).toBe(401);
    expect(
      (
        await send('POST', '/api/v1/projects/LOG/tasks/', owner.token, '{"title": tru', {
          'content-type': 'application/json',
        })
      ).statusCode,
    ).toBe(400);

    const created = await send('POST', '/api/v1/webhooks/endpoints/', owner.token, {
      url: receiver.url(),
      project: project.json().data.id,
    });
    expect(created.statusCode).toBe(201);
    const secret: string = created.json().data.secret;
    expect((await send('POST', '/api/v1/projects/LOG/tasks/', owner.token, { title: 'fan me out' })).statusCode).toBe(
      201,
    );
    await fanOut(h.ctx);
    await deliverDue(h.ctx, log, 10);
    expect(receiver.requests.length).toBeGreaterThan(0);
    const signature = String(
      receiver.requests[0]!.headers['webhook-signature'] ?? receiver.requests[0]!.headers['x-signature'] ?? '',
    );

    // Anything logging raw request headers (Fastify's own serializer keeps none) gets the credentials censored.
    createLogger('info', { write: (line: string) => void lines.push(line) }).info(
      { req: { headers: { authorization: `Bearer ${owner.token}`, 'idempotency-key': idempotencyKey } } },
      'raw headers',
    );

    const text = lines.join('');
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.at(-1)).toContain('"authorization":"[redacted]"');
    for (const value of [owner.token, bogusToken, idempotencyKey, secret, secret.replace(/^whsec_/, '')])
      expect(text).not.toContain(value);
    if (signature) expect(text).not.toContain(signature);
  });
});
