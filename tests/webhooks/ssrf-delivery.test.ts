import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDue } from '../../src/worker/deliver-due.ts';
import { fanOut } from '../../src/worker/fan-out.ts';
import type { Actor } from '../helpers/harness.ts';
import { captureLogger, createWebhookHarness, emitEvent, type Receiver, startReceiver, type WebhookHarness } from '../helpers/webhooks.ts';
import { REFUSED_URLS, resolverTable } from './ssrf-forms.ts';

/**
 * Spec 6 "Endpoint URL requirements" rule 3 with WEBHOOK_ALLOW_PRIVATE_TARGETS off: the guard
 * runs again on every attempt. A real receiver listens on 127.0.0.1 and must never be reached.
 */
describe('SSRF guard at delivery time (switch off)', () => {
  let h: WebhookHarness;
  let admin: Actor;
  let project: { id: number };
  let receiver: Receiver;
  const { log } = captureLogger();

  beforeAll(async () => {
    h = await createWebhookHarness({ allowPrivate: false });
    Object.assign(h.resolver.table, resolverTable());
    admin = await h.actor();
    project = await h.project(admin, 'SSRF');
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await h.close();
  });

  async function createEndpoint(url: string): Promise<number> {
    const res = await h.request('POST', '/api/v1/webhooks/endpoints/', { token: admin.token, body: { url, project: project.id, events: ['task.updated'] } });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id;
  }

  async function deliveryOf(endpointId: number) {
    const res = await h.request('GET', `/api/v1/webhooks/deliveries/?endpoint=${endpointId}`, { token: admin.token });
    return res.body.data[0];
  }

  it('DNS rebinding: a name public at save time and private at delivery time is refused without connecting', async () => {
    h.resolver.table['rebind.hooks.example'] = ['93.184.216.34'];
    const id = await createEndpoint(`https://rebind.hooks.example:${receiver.port}/hook`);
    h.resolver.table['rebind.hooks.example'] = ['127.0.0.1'];
    h.resolver.calls.length = 0;

    await emitEvent(h, project.id);
    await fanOut(h.ctx);
    await deliverDue(h.ctx, log);

    expect(h.resolver.calls).toEqual(['rebind.hooks.example']);
    expect(receiver.requests).toHaveLength(0);
    const delivery = await deliveryOf(id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, response_status: null });
    expect(delivery.error).toBe('refused before connecting: the URL host rebind.hooks.example resolves to 127.0.0.1, a loopback address');
    await h.ctx.db.updateTable('webhook_endpoints').set({ enabled: 0 }).where('id', '=', id).execute();
  });

  it('every refused form stored on an endpoint (e.g. saved before a policy change) is refused on every attempt', async () => {
    const ids = new Map<number, string>();
    for (const { url, why } of REFUSED_URLS) {
      const id = await createEndpoint('https://93.184.216.34/hook');
      // Point the stored URL at the receiver's port where the form has no port, so a guard miss would connect.
      const stored = url.replace(/^(https?:\/\/[^/]+?)(:\d+)?\//, `$1:${receiver.port}/`);
      await h.ctx.db.updateTable('webhook_endpoints').set({ url: stored }).where('id', '=', id).execute();
      ids.set(id, `${why}: ${stored}`);
    }
    await emitEvent(h, project.id);
    await fanOut(h.ctx);
    while ((await deliverDue(h.ctx, log, 100)) > 0);

    expect(receiver.requests).toHaveLength(0);
    for (const [id, label] of ids) {
      const delivery = await deliveryOf(id);
      expect(delivery.attempts, label).toBe(1);
      expect(delivery.error, label).toMatch(/^refused before connecting: the URL /);
    }
  });
});
