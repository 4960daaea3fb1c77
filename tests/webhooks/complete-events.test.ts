import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler, type WebhookEvent } from '@tasktracker/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDue } from '../../src/modules/webhooks/delivery/deliver-due.ts';
import { fanOut } from '../../src/modules/webhooks/delivery/fan-out.ts';
import { causeProjectEvents } from '../helpers/events.ts';
import { captureLogger, createWebhookHarness, type WebhookHarness } from '../helpers/webhooks.ts';

/** The event types beyond the first eight, each caused in both projects by causeProjectEvents (project.created by creating them). */
const NEW_TYPES = [
  'comment.updated',
  'comment.deleted',
  'task.linked',
  'task.unlinked',
  'attachment.created',
  'sprint.started',
  'sprint.completed',
  'standup.submitted',
  'standup.blocker_raised',
  'standup.blocker_cleared',
  'project.created',
  'project.updated',
  'membership.changed',
] as const;

describe('complete events: delivered, signed, and only to endpoints whose account sees them', () => {
  let h: WebhookHarness;
  let server: http.Server;
  const handlers = new Map<string, ReturnType<typeof createWebhookHandler>>();
  const received = new Map<string, WebhookEvent[]>();
  const { log } = captureLogger();

  beforeAll(async () => {
    h = await createWebhookHarness({ allowPrivate: true });
    server = http.createServer((req, res) => {
      const handler = handlers.get(req.url!);
      if (handler) void handler.listener()(req, res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await h.close();
  });

  /** An organization-wide endpoint of `token`'s account subscribed to the new types, verifying signatures. */
  async function receiver(token: string, path: string): Promise<WebhookEvent[]> {
    const port = (server.address() as AddressInfo).port;
    const res = await h.request('POST', '/api/v1/webhooks/endpoints/', {
      token,
      body: { url: `http://hooks.test:${port}${path}`, events: [...NEW_TYPES] },
    });
    expect(res.status, res.text).toBe(201);
    const events: WebhookEvent[] = [];
    received.set(path, events);
    // The handler refuses (401) anything whose signature does not verify with this endpoint's secret.
    handlers.set(
      path,
      createWebhookHandler({ secret: res.body.data.secret, now: () => Math.floor(h.clock.nowMs() / 1000) }).onAny(
        (event) => void events.push(event),
      ),
    );
    return events;
  }

  it('each new type reaches the endpoints that may see it, and nothing of an unseen project reaches the others', async () => {
    const owner = await h.actor({ role: 'admin' });
    const member = await h.actor({ org: owner.org, role: 'member' });
    const spare = await h.actor({ org: owner.org, role: 'member' });
    const ownerEvents = await receiver(owner.token, '/owner');
    const memberEvents = await receiver(member.token, '/member');

    await h.project(owner, 'SEEN');
    await h.project(owner, 'HIDDEN');
    await h.addMember('SEEN', member.accountId, 'member');
    const hiddenTask = await causeProjectEvents(h, owner.token, 'HIDDEN', { member: spare.accountId });
    // A link from the project the member sees to one it does not: the event discloses both ends.
    await causeProjectEvents(h, owner.token, 'SEEN', { member: spare.accountId, linkTo: hiddenTask });
    // The same, within the project the member sees.
    const seenTask = (await h.request('GET', '/api/v1/projects/SEEN/tasks/?limit=1', { token: owner.token })).body
      .data[0].key as string;
    const second = await h.request('POST', '/api/v1/projects/SEEN/tasks/', {
      token: owner.token,
      body: { title: 'Linked within' },
    });
    const inner = await h.request('POST', `/api/v1/tasks/${seenTask}/link/`, {
      token: owner.token,
      body: { type: 'relates_to', task: second.body.data.key },
    });
    expect(inner.status, inner.text).toBe(201);
    const unlinked = await h.request('DELETE', `/api/v1/tasks/${seenTask}/links/${inner.body.data.id}/`, {
      token: owner.token,
    });
    expect(unlinked.status).toBe(204);

    await fanOut(h.ctx);
    while ((await deliverDue(h.ctx, log)) > 0);

    const typesOf = (events: WebhookEvent[]) => [...new Set(events.map((e) => e.type))].sort();
    expect(typesOf(ownerEvents)).toEqual([...NEW_TYPES].sort());
    expect(typesOf(memberEvents)).toEqual([...NEW_TYPES].sort());
    // The owner hears of both projects; the member never of HIDDEN, not even as a link's other end.
    const mentions = (events: WebhookEvent[], key: string) =>
      events.filter((e) => JSON.stringify(e.data).includes(key)).map((e) => e.type);
    expect(mentions(ownerEvents, 'HIDDEN').length).toBeGreaterThan(NEW_TYPES.length - 2);
    expect(mentions(memberEvents, 'HIDDEN')).toEqual([]);
    for (const type of ['task.linked', 'task.unlinked']) {
      expect(memberEvents.filter((e) => e.type === type)).toHaveLength(1);
      expect(ownerEvents.filter((e) => e.type === type)).toHaveLength(3);
    }
    // The member was added with the operator's CLI (addProjectMember): announced like an API change, by the operator.
    const byOperator = (events: WebhookEvent[]) => events.filter((e) => e.source === 'operator');
    for (const events of [ownerEvents, memberEvents])
      expect(byOperator(events).map((e) => [e.type, e.actor.id, e.data])).toEqual([
        [
          'membership.changed',
          0,
          {
            membership: {
              id: expect.any(Number),
              project: { id: expect.any(Number), key: 'SEEN' },
              user: { id: member.accountId, name: expect.any(String) },
            },
            change: 'added',
            from_role: null,
            to_role: 'member',
          },
        ],
      ]);
    for (const event of [...ownerEvents, ...memberEvents].filter((e) => e.source !== 'operator')) {
      expect(event.source).toBe('api');
      expect(event.actor.id).toBe(owner.accountId);
    }
  });
});
