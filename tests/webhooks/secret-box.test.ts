import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config.ts';
import { createAppContext } from '../../src/context.ts';
import { decryptSecret, encryptSecret, newSigningSecret } from '../../src/crypto/secret-box.ts';
import { deliverDue } from '../../src/modules/webhooks/delivery/deliver-due.ts';
import { fanOut } from '../../src/modules/webhooks/delivery/fan-out.ts';
import { installationSecrets } from '../helpers/storage.ts';
import { captureLogger, createWebhookHarness, emitEvent, type WebhookHarness } from '../helpers/webhooks.ts';

describe('signing secrets at rest (AES-256-GCM, key from WEBHOOK_SECRET_KEY)', () => {
  let h: WebhookHarness;

  beforeAll(async () => {
    const base = loadConfig({});
    h = await createWebhookHarness({
      allowPrivate: true,
      config: { webhooks: { ...base.webhooks, secretKey: 'correct horse battery staple' } },
    });
  });
  afterAll(() => h.close());

  it('round-trips, and refuses a tampered ciphertext or another key', () => {
    const key = randomBytes(32);
    const secret = newSigningSecret();
    const stored = encryptSecret(key, secret);
    expect(decryptSecret(key, stored)).toBe(secret);
    expect(encryptSecret(key, secret)).not.toBe(stored);
    const [format, iv, tag, body] = stored.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => decryptSecret(key, [format, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => decryptSecret(randomBytes(32), stored)).toThrow();
  });

  it('with WEBHOOK_SECRET_KEY set no key is kept in the database; a different key later fails attempts with a clear error', async () => {
    const admin = await h.actor();
    const project = await h.project(admin, 'KEY');
    const res = await h.request('POST', '/api/v1/webhooks/endpoints/', {
      token: admin.token,
      body: { url: 'https://hooks.test:9/hook', project: project.id },
    });
    expect(res.status).toBe(201);
    expect(await installationSecrets(h)).toEqual([]);

    const restarted = createAppContext({
      database: h.ctx.database,
      clock: h.ctx.clock,
      config: { ...h.ctx.config, webhooks: { ...h.ctx.config.webhooks, secretKey: 'another key' } },
    });
    await emitEvent(h, project.id);
    await fanOut(restarted);
    await deliverDue(restarted, captureLogger().log);
    const [delivery] = (await h.request('GET', '/api/v1/webhooks/deliveries/', { token: admin.token })).body.data;
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1 });
    expect(delivery.error).toMatch(/signing secret cannot be decrypted/);
  });
});
