import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { WebhookEventType as ClientEventType } from '@tasktracker/client';
import { createWebhookHandler, type WebhookEvent, type WebhookEventType } from '@tasktracker/webhooks';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_CATALOG } from '../../src/events/catalog.ts';
import { notifyAboutEvents } from '../../src/modules/notifications/notify.service.ts';
import { deliverDue } from '../../src/modules/webhooks/delivery/deliver-due.ts';
import { fanOut } from '../../src/modules/webhooks/delivery/fan-out.ts';
import { emitDueSoon, escalateStuckTasks } from '../../src/worker/scheduler.ts';
import { causeProjectEvents } from '../helpers/events.ts';
import { captureLogger, createWebhookHarness, type WebhookHarness } from '../helpers/webhooks.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const root = path.resolve(import.meta.dirname, '../..');
const document = JSON.parse(fs.readFileSync(path.join(root, 'docs/openapi.json'), 'utf8')) as {
  webhooks: Record<
    string,
    { post: { requestBody: { content: { 'application/json': { schema: { $ref: string } } } } } }
  >;
};

// Both packages know exactly the catalog's types: a type missing from either fails to compile here,
// one the catalog lacks fails below.
const EVERY_TYPE = {
  'task.created': true,
  'task.updated': true,
  'task.status_changed': true,
  'task.assigned': true,
  'task.deleted': true,
  'task.due_soon': true,
  'task.escalated': true,
  'comment.created': true,
  'comment.updated': true,
  'comment.deleted': true,
  'task.linked': true,
  'task.unlinked': true,
  'attachment.created': true,
  'sprint.started': true,
  'sprint.completed': true,
  'standup.submitted': true,
  'standup.blocker_raised': true,
  'standup.blocker_cleared': true,
  'project.created': true,
  'project.updated': true,
  'membership.changed': true,
  'notification.created': true,
  'webhook.test': true,
} as const satisfies Record<WebhookEventType, true> & Record<ClientEventType, true>;

describe('webhook events in the OpenAPI document', () => {
  it('the webhooks section has every catalog type, each body the envelope with that type', () => {
    expect(Object.keys(document.webhooks)).toEqual(EVENT_CATALOG.map((e) => e.type));
    expect(Object.keys(EVERY_TYPE).sort()).toEqual(EVENT_CATALOG.map((e) => e.type).sort());
    for (const [type, entry] of Object.entries(document.webhooks)) {
      const ref = entry.post.requestBody.content['application/json'].schema.$ref;
      const name = ref.split('/').pop()!;
      const schema = (
        document as unknown as { components: { schemas: Record<string, { properties: { type: unknown } }> } }
      ).components.schemas[name]!;
      expect(schema.properties.type, type).toEqual({ type: 'string', enum: [type] });
    }
  });
});

describe('every event type, produced by the real server and delivered to a typed handler', () => {
  let h: WebhookHarness;
  let server: http.Server;
  const received: WebhookEvent[] = [];
  const statusMoves: string[] = [];
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, validateSchema: false }));
  ajv.addSchema({ ...document, $id: 'openapi.json' });
  const { log } = captureLogger();
  let handler: ReturnType<typeof createWebhookHandler> | undefined;

  beforeAll(async () => {
    h = await createWebhookHarness({ allowPrivate: true });
    server = http.createServer((req, res) => void handler!.listener()(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await h.close();
  });

  it('each matches its schema in the document and reaches the listener of its type', { timeout: 60_000 }, async () => {
    const admin = await h.actor();
    const colleague = await h.actor({ org: admin.org, role: 'member' });
    const port = (server.address() as AddressInfo).port;
    // Organization-wide: standup.submitted belongs to no project.
    const endpoint = await h.request('POST', '/api/v1/webhooks/endpoints/', {
      token: admin.token,
      body: {
        url: `http://hooks.test:${port}/events`,
        events: EVENT_CATALOG.filter((e) => e.subscribable).map((e) => e.type),
      },
    });
    expect(endpoint.status).toBe(201);
    handler = createWebhookHandler({
      secret: endpoint.body.data.secret,
      now: () => Math.floor(h.clock.nowMs() / 1000),
    })
      // Typed per event: `from` and `to` of a status change are status names.
      .on('task.status_changed', (event) => void statusMoves.push(`${event.data.from} -> ${event.data.to}`))
      .onAny((event) => void received.push(event));

    await h.project(admin, 'EVT');
    await causeProjectEvents(h, admin.token, 'EVT', { member: colleague.accountId });
    const as = { token: admin.token };
    const task = (key: string) => `/api/v1/tasks/${key}/`;
    const created = await h.request('POST', '/api/v1/projects/EVT/tasks/', {
      ...as,
      body: { title: 'Ship it', due_date: '2026-11-21' },
    });
    const key = created.body.data.key as string;
    await h.request('PUT', task(key), { ...as, body: { title: 'Ship it today' } });
    await h.request('PUT', task(key), { ...as, body: { status: 'In Progress' } });
    await h.request('POST', `${task(key)}assign/`, { ...as, body: { assignee: admin.accountId } });
    await h.request('POST', `${task(key)}comments/`, { ...as, body: { body: 'On it.' } });
    // A colleague's comment on the admin's task notifies the admin.
    await h.addMember('EVT', colleague.accountId, 'member');
    await h.request('POST', `${task(key)}comments/`, { token: colleague.token, body: { body: 'Need a hand?' } });
    await notifyAboutEvents(h.ctx);
    const doomed = await h.request('POST', '/api/v1/projects/EVT/tasks/', { ...as, body: { title: 'Doomed' } });
    await h.request('DELETE', task(doomed.body.data.key), as);
    expect(await emitDueSoon(h.ctx)).toBe(1);
    h.clock.advance(4 * 24 * 3600 * 1000);
    expect(await escalateStuckTasks(h.ctx)).toBe(1);
    await h.request('POST', `/api/v1/webhooks/endpoints/${endpoint.body.data.id}/test/`, as);

    await fanOut(h.ctx);
    while ((await deliverDue(h.ctx, log)) > 0);

    const types = received.map((e) => e.type).sort();
    expect([...new Set(types)]).toEqual(Object.keys(EVERY_TYPE).sort());
    for (const event of received) {
      const validate = ajv.getSchema(`openapi.json#/components/schemas/${schemaName(event.type)}`)!;
      expect(validate(event) ? [] : validate.errors, event.type).toEqual([]);
    }
    expect(statusMoves).toEqual(['To Do -> In Progress']);
    const deliveries = (await h.request('GET', '/api/v1/webhooks/deliveries/?limit=100', as)).body.data as Array<{
      status: string;
      response_status: number;
    }>;
    expect(new Set(deliveries.map((d) => `${d.status} ${d.response_status}`))).toEqual(new Set(['delivered 204']));
  });
});

/** The component of a type, as the document names it (`task.status_changed` -> `TaskStatusChangedEvent`). */
function schemaName(type: string): string {
  const ref = document.webhooks[type]!.post.requestBody.content['application/json'].schema.$ref;
  return ref.split('/').pop()!;
}
