import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookReceiver, type WebhookReceiver } from '../../examples/webhook-receiver.ts';
import { computeSignature, verifyWebhook } from '@tasktracker/webhooks';
import { deliverDue } from '../../src/modules/webhooks/delivery/deliver-due.ts';
import { fanOut } from '../../src/modules/webhooks/delivery/fan-out.ts';
import { captureLogger, createWebhookHarness, emitEvent, type WebhookHarness } from '../helpers/webhooks.ts';

const SECRET = 'whsec_test_secret';
const BODY = Buffer.from('{"id":"evt_1","type":"task.created","data":{"title":"caf\u00e9"}}');

describe('consumer kit: verifyWebhook checks the signature header', () => {
  const now = 1_795_000_000;
  const signed = (timestamp: number, body: Buffer | string = BODY, secret = SECRET) =>
    computeSignature(secret, String(timestamp), body);

  it('accepts the signature over the raw bytes within 300 s either way', () => {
    for (const skew of [0, 300, -300]) {
      const timestamp = now + skew;
      expect(
        verifyWebhook({
          rawBody: BODY,
          signature: signed(timestamp),
          timestamp: String(timestamp),
          secret: SECRET,
          nowSeconds: now,
        }),
      ).toEqual({ valid: true });
    }
  });

  it('rejects stale timestamps, other secrets, re-serialized bodies, malformed and missing headers', () => {
    const ts = String(now);
    const check = (overrides: Partial<Parameters<typeof verifyWebhook>[0]>) =>
      verifyWebhook({
        rawBody: BODY,
        signature: signed(now),
        timestamp: ts,
        secret: SECRET,
        nowSeconds: now,
        ...overrides,
      });
    expect(check({ timestamp: String(now - 301), signature: signed(now - 301) })).toEqual({
      valid: false,
      reason: 'stale_timestamp',
    });
    expect(check({ timestamp: String(now + 301), signature: signed(now + 301) })).toEqual({
      valid: false,
      reason: 'stale_timestamp',
    });
    expect(check({ secret: 'whsec_other' })).toEqual({ valid: false, reason: 'bad_signature' });
    const reserialized = JSON.stringify(JSON.parse(BODY.toString()), null, 1);
    expect(check({ rawBody: reserialized })).toEqual({ valid: false, reason: 'bad_signature' });
    expect(check({ signature: `${signed(now)}ff` })).toEqual({ valid: false, reason: 'bad_signature' });
    expect(check({ signature: signed(now).replace('sha256=', 'sha1=') })).toEqual({
      valid: false,
      reason: 'bad_signature',
    });
    expect(check({ timestamp: '1795000000.5' })).toEqual({ valid: false, reason: 'malformed_timestamp' });
    expect(check({ signature: undefined })).toEqual({ valid: false, reason: 'missing_headers' });
  });
});

describe('examples/webhook-receiver.ts against the real delivery worker', () => {
  let h: WebhookHarness;
  let server: http.Server;
  let receiver: WebhookReceiver | undefined;
  let dir: string;
  const { log } = captureLogger();

  beforeAll(async () => {
    h = await createWebhookHarness({ allowPrivate: true });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'receiver-'));
    server = http.createServer((req, res) => receiver!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    receiver?.close();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
    await h.close();
  });

  it('stores each event once (deduplicated on id), answers 2xx, and refuses stale or forged requests', async () => {
    const admin = await h.actor();
    const project = await h.project(admin, 'RCV');
    const port = (server.address() as AddressInfo).port;
    const created = await h.request('POST', '/api/v1/webhooks/endpoints/', {
      token: admin.token,
      body: { url: `http://hooks.test:${port}/events`, project: project.id, events: ['task.created'] },
    });
    receiver = createWebhookReceiver({
      secret: created.body.data.secret,
      dbPath: path.join(dir, 'events.db'),
      nowSeconds: () => Math.floor(h.clock.nowMs() / 1000),
    });

    const eventId = await emitEvent(h, project.id, 'task.created');
    await fanOut(h.ctx);
    await deliverDue(h.ctx, log);
    const deliveries = (await h.request('GET', '/api/v1/webhooks/deliveries/', { token: admin.token })).body.data;
    expect(deliveries[0]).toMatchObject({ status: 'delivered', response_status: 200 });

    // A replay is the same event: acknowledged, not stored twice.
    await h.request('POST', `/api/v1/webhooks/deliveries/${deliveries[0].id}/replay/`, { token: admin.token });
    await deliverDue(h.ctx, log);
    const replay = (await h.request('GET', '/api/v1/webhooks/deliveries/', { token: admin.token })).body.data[0];
    expect(replay).toMatchObject({ status: 'delivered', replay_of: deliveries[0].id });
    const detail = (await h.request('GET', `/api/v1/webhooks/deliveries/${replay.id}/`, { token: admin.token })).body
      .data;
    expect(JSON.parse(detail.attempt_history[0].response_body)).toEqual({ id: eventId, duplicate: true });
    const rows = receiver.db.prepare('SELECT id, type FROM events').all();
    expect(rows).toEqual([{ id: eventId, type: 'task.created' }]);

    const post = (headers: Record<string, string>, body = BODY) =>
      fetch(`http://127.0.0.1:${port}/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    const stale = String(Math.floor(h.clock.nowMs() / 1000) - 600);
    const staleRes = await post({
      'x-service-timestamp': stale,
      'x-service-signature': computeSignature(created.body.data.secret, stale, BODY),
    });
    expect(staleRes.status).toBe(400);
    expect(await staleRes.json()).toEqual({ error: 'stale_timestamp' });
    const fresh = String(Math.floor(h.clock.nowMs() / 1000));
    const forged = await post({
      'x-service-timestamp': fresh,
      'x-service-signature': computeSignature('whsec_guess', fresh, BODY),
    });
    expect(forged.status).toBe(401);
    expect(receiver.db.prepare('SELECT count(*) AS n FROM events').get()).toEqual({ n: 1 });
  });
});
