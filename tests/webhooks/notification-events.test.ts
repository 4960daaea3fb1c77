import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler, type WebhookEvent } from '@tasktracker/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifyAboutEvents } from '../../src/modules/notifications/notify.service.ts';
import { deliverDue } from '../../src/modules/webhooks/delivery/deliver-due.ts';
import { fanOut } from '../../src/modules/webhooks/delivery/fan-out.ts';
import { notifyOverdue } from '../../src/worker/scheduler.ts';
import type { Actor } from '../helpers/harness.ts';
import { type LiveClient, openLive } from '../helpers/live.ts';
import { captureLogger, createWebhookHarness, type WebhookHarness } from '../helpers/webhooks.ts';

describe('notification.created: to the person notified, and nobody else', () => {
  let h: WebhookHarness;
  let receiver: http.Server;
  let base: string;
  const handlers = new Map<string, ReturnType<typeof createWebhookHandler>>();
  const streams: LiveClient[] = [];
  const { log } = captureLogger();

  beforeAll(async () => {
    h = await createWebhookHarness({
      allowPrivate: true,
      config: { live: { heartbeatMs: 15_000, pollMs: 100, maxStreamsPerPerson: 10, maxStreamsPerOrganization: 100 } },
    });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    receiver = http.createServer((req, res) => {
      const handler = handlers.get(req.url!);
      if (handler) void handler.listener()(req, res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await new Promise((resolve) => receiver.close(resolve));
    await h.close();
  });

  /** An organization-wide endpoint of `actor`'s account subscribed to notification.created, verifying signatures. */
  async function endpointOf(actor: Actor, path: string): Promise<WebhookEvent[]> {
    const res = await h.request('POST', '/api/v1/webhooks/endpoints/', {
      token: actor.token,
      body: {
        url: `http://hooks.test:${(receiver.address() as AddressInfo).port}${path}`,
        events: ['notification.created'],
      },
    });
    expect(res.status, res.text).toBe(201);
    const events: WebhookEvent[] = [];
    handlers.set(
      path,
      createWebhookHandler({ secret: res.body.data.secret, now: () => Math.floor(h.clock.nowMs() / 1000) }).onAny(
        (event) => void events.push(event),
      ),
    );
    return events;
  }

  async function stream(token: string): Promise<LiveClient> {
    const client = await openLive(base, {
      path: '/api/v1/events/stream/',
      headers: { authorization: `Bearer ${token}` },
    });
    streams.push(client);
    expect(client.status, client.body).toBe(200);
    await client.waitFor((e) => e.event === 'ready');
    return client;
  }
  const notificationsOn = (client: LiveClient) =>
    client.events.filter((e) => e.event === 'notification.created').map((e) => JSON.parse(e.data));

  it('reaches the recipient’s endpoint and streams, signed, as the inbox lists it; not the admin’s, not a token restricted elsewhere', async () => {
    const lead = await h.actor({ role: 'admin' });
    const ann = await h.actor({ org: lead.org, role: 'member' });
    const bob = await h.actor({ org: lead.org, role: 'member' });
    await h.project(lead, 'NOTE');
    const side = await h.project(lead, 'SIDE');
    for (const project of ['NOTE', 'SIDE']) {
      await h.addMember(project, ann.accountId);
      await h.addMember(project, bob.accountId);
    }
    const toLead = await endpointOf(lead, '/lead');
    const toAnn = await endpointOf(ann, '/ann');
    const toBob = await endpointOf(bob, '/bob');
    // Notifications need no scope, as the inbox; a token restricted to SIDE sees none about NOTE.
    const annAnyScope = await stream((await h.tokenFor(ann.accountId, ['projects:read'])).token);
    const annInSide = await stream((await h.tokenFor(ann.accountId, undefined, ['SIDE'])).token);
    const leadStream = await stream(lead.token);
    const bobStream = await stream(bob.token);
    await notifyAboutEvents(h.ctx);

    const created = await h.request('POST', '/api/v1/projects/NOTE/tasks/', {
      token: lead.token,
      body: { title: 'Ship it', assignee: ann.accountId, due_date: '2026-01-01' },
    });
    expect(created.status, created.text).toBe(201);
    const key = created.body.data.key as string;
    await notifyAboutEvents(h.ctx);
    // The scheduler's notice: no actor, source scheduler.
    expect(await notifyOverdue(h.ctx)).toBe(1);
    // A later event each stream sees: whatever came before it has been sent.
    await h.request('PATCH', `/api/v1/projects/${side.id}/`, { token: lead.token, body: { description: 'Later' } });

    const inbox = (await h.request('GET', '/api/v1/me/notifications/?ordering=created_at', { token: ann.token })).body
      .data;
    expect(inbox.map((n: { reason: string }) => n.reason)).toEqual(['assigned', 'overdue']);
    await annInSide.waitFor((e) => e.event === 'project.updated');
    await leadStream.waitFor((e) => e.event === 'project.updated');
    await bobStream.waitFor((e) => e.event === 'project.updated');
    await annAnyScope.waitFor(
      (e) => e.event === 'notification.created' && JSON.parse(e.data).data.notification.reason === 'overdue',
    );
    const streamed = notificationsOn(annAnyScope);
    expect(streamed.map((e) => e.data.notification)).toEqual(inbox);
    expect(streamed.map((e) => [e.source, e.actor.id])).toEqual([
      ['api', lead.accountId],
      ['scheduler', 0],
    ]);
    expect(streamed[0].data.notification).toMatchObject({
      reason: 'assigned',
      read_at: null,
      actor: { id: lead.accountId, name: expect.any(String) },
      task: { key, title: 'Ship it' },
      comment: null,
    });
    expect(notificationsOn(annInSide)).toEqual([]);
    expect(notificationsOn(leadStream)).toEqual([]);
    expect(notificationsOn(bobStream)).toEqual([]);

    await fanOut(h.ctx);
    while ((await deliverDue(h.ctx, log)) > 0);
    expect(toAnn.map((e) => e.data)).toEqual(streamed.map((e) => e.data));
    expect(toAnn.map((e) => e.id)).toEqual(streamed.map((e) => e.id));
    expect(toLead).toEqual([]);
    expect(toBob).toEqual([]);
    // The workspace admin sees Ann's endpoint but not the deliveries of her notifications.
    const deliveries = (token: string) =>
      h.request('GET', '/api/v1/webhooks/deliveries/?event_type=notification.created', { token });
    expect((await deliveries(ann.token)).body.data).toHaveLength(2);
    expect((await deliveries(lead.token)).body.data).toEqual([]);
  });

  it('is not sent for a notification that is e-mail only (not in the inbox)', async () => {
    const lead = await h.actor({ role: 'admin' });
    const ann = await h.actor({ org: lead.org, role: 'member' });
    await h.project(lead, 'MAIL');
    await h.addMember('MAIL', ann.accountId);
    const toAnn = await endpointOf(ann, '/ann-mail');
    const prefs = await h.request('PATCH', '/api/v1/me/notification-preferences/', {
      token: ann.token,
      body: { reasons: { assigned: { in_app: false, email: true } } },
    });
    expect(prefs.status, prefs.text).toBe(200);
    await notifyAboutEvents(h.ctx);
    const created = await h.request('POST', '/api/v1/projects/MAIL/tasks/', {
      token: lead.token,
      body: { title: 'Mailed', assignee: ann.accountId },
    });
    expect(created.status).toBe(201);
    await notifyAboutEvents(h.ctx);
    const rows = await h.ctx.db
      .selectFrom('notifications')
      .select('in_app')
      .where('user_id', '=', ann.accountId)
      .execute();
    expect(rows).toEqual([{ in_app: 0 }]);
    await fanOut(h.ctx);
    while ((await deliverDue(h.ctx, log)) > 0);
    expect(toAnn).toEqual([]);
  });
});
