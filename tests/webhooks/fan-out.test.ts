import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import type { AppContext } from '../../src/context.ts';
import { openDatabase } from '../../src/db/database.ts';
import { deliverDue } from '../../src/modules/webhooks/delivery/deliver-due.ts';
import { fanOut } from '../../src/modules/webhooks/delivery/fan-out.ts';
import type { Actor } from '../helpers/harness.ts';
import { removeMember } from '../helpers/factory.ts';
import {
  attemptsOf,
  captureLogger,
  createWebhookHarness,
  deliveriesOf,
  emitEvent,
  type Receiver,
  startReceiver,
  unfannedEvents,
  type WebhookHarness,
} from '../helpers/webhooks.ts';

const URL_OK = 'https://hooks.test/hook';

describe('fan-out: outbox events to the deliveries of covering endpoints', () => {
  let h: WebhookHarness;
  let owner: Actor;
  let alpha: { id: number };
  let beta: { id: number };

  beforeAll(async () => {
    h = await createWebhookHarness({ allowPrivate: true });
    owner = await h.actor({ role: 'admin' });
    alpha = await h.project(owner, 'ALPHA');
    beta = await h.project(owner, 'BETA');
    // Their project.created events are out of the way before any endpoint exists.
    await fanOut(h.ctx);
  });
  afterAll(() => h.close());

  async function endpoint(actor: Actor, body: Record<string, unknown>): Promise<number> {
    const res = await h.request('POST', '/api/v1/webhooks/endpoints/', {
      token: actor.token,
      body: { url: URL_OK, ...body },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id;
  }

  async function deliveredEvents(endpointId: number): Promise<string[]> {
    return (await deliveriesOf(h, { endpoint: endpointId })).map((r) => r.event_id);
  }

  it("project endpoints get their project's subscribed events; org-wide endpoints every project their creator can see", async () => {
    const member = await h.actor({ org: owner.org, role: 'member' });
    await h.addMember('ALPHA', member.accountId, 'member');
    // Its membership.changed goes out before any endpoint exists.
    expect(await fanOut(h.ctx)).toBe(1);
    const alphaOnly = await endpoint(owner, { project: alpha.id, events: ['task.created'] });
    const orgWideOwner = await endpoint(owner, { events: ['task.created', 'task.updated'] });
    const orgWideMember = await endpoint(member, { events: ['task.created'] });
    const disabled = await endpoint(owner, { events: ['task.created'] });
    await h.request('PATCH', `/api/v1/webhooks/endpoints/${disabled}/`, {
      token: owner.token,
      body: { enabled: false },
    });
    const elsewhere = await h.actor();
    const otherOrg = await endpoint(elsewhere, { events: ['task.created'] });

    const aCreated = await emitEvent(h, alpha.id, 'task.created');
    const aUpdated = await emitEvent(h, alpha.id, 'task.updated');
    const bCreated = await emitEvent(h, beta.id, 'task.created');
    expect(await fanOut(h.ctx)).toBe(3);

    expect(await deliveredEvents(alphaOnly)).toEqual([aCreated]);
    expect(await deliveredEvents(orgWideOwner)).toEqual([aCreated, aUpdated, bCreated]);
    // The member sees ALPHA only, so its org-wide endpoint does not get BETA's events.
    expect(await deliveredEvents(orgWideMember)).toEqual([aCreated]);
    expect(await deliveredEvents(disabled)).toEqual([]);
    expect(await deliveredEvents(otherOrg)).toEqual([]);

    // Every event is marked, so a second pass creates nothing.
    const unfanned = await unfannedEvents(h);
    expect(unfanned).toEqual([]);
    expect(await fanOut(h.ctx)).toBe(0);

    // Visibility is judged at fan-out time: after the member leaves ALPHA, its endpoint gets nothing more.
    await removeMember(h, owner, 'ALPHA', member.accountId);
    await emitEvent(h, alpha.id, 'task.created');
    await fanOut(h.ctx);
    expect(await deliveredEvents(orgWideMember)).toEqual([aCreated]);
  });

  it('a project endpoint whose creator no longer sees the project receives nothing', async () => {
    const member = await h.actor({ org: owner.org, role: 'member' });
    // Project-bound endpoints are managed by the project's admins.
    await h.addMember('BETA', member.accountId, 'admin');
    const ep = await endpoint(member, { project: beta.id, events: ['comment.created'] });
    await removeMember(h, owner, 'BETA', member.accountId);
    await emitEvent(h, beta.id, 'comment.created');
    await fanOut(h.ctx);
    expect(await deliveredEvents(ep)).toEqual([]);
  });
});

/**
 * Several workers against one database. On PostgreSQL the two workers use two
 * connection pools, as two processes would; SQLite has one writer, so its workers share the
 * connection and the test checks that interleaved passes still never double-send.
 */
describe('several workers never fan out or send the same attempt twice', () => {
  let h: WebhookHarness;
  let receiver: Receiver;
  let second: AppContext;
  let closeSecond: () => Promise<void>;
  const { log } = captureLogger();

  beforeAll(async () => {
    // The attempt deadline is real time: a loaded CI machine must not turn slow into failed.
    h = await createWebhookHarness({
      allowPrivate: true,
      config: { webhooks: { ...loadConfig({}).webhooks, attemptTimeoutMs: 60_000 } },
    });
    receiver = await startReceiver();
    const url = process.env.TEST_DATABASE_URL;
    if (h.ctx.dialect === 'postgres' && url) {
      const handle = openDatabase(url, { pgSchema: h.ctx.database.pgSchema, pgPoolSize: 5 });
      second = { ...h.ctx, database: handle, db: handle.db };
      closeSecond = () => handle.close();
    } else {
      second = h.ctx;
      closeSecond = async () => undefined;
    }
  });
  afterAll(async () => {
    await closeSecond();
    await receiver.close();
    await h.close();
  });

  it('two workers: each delivery gets each attempt exactly once', async () => {
    const admin = await h.actor();
    const project = await h.project(admin, 'RACE');
    // Its project.created event is out of the way before any endpoint exists.
    await fanOut(h.ctx);
    for (let i = 0; i < 3; i += 1) {
      const res = await h.request('POST', '/api/v1/webhooks/endpoints/', {
        token: admin.token,
        body: { url: receiver.url(`/ep${i}`), project: project.id },
      });
      expect(res.status).toBe(201);
    }
    const events = 30;
    for (let i = 0; i < events; i += 1) await emitEvent(h, project.id);

    // Fan-out from both workers at once, in small batches.
    const fanned = await Promise.all(
      [h.ctx, second, h.ctx, second].map(async (ctx) => {
        let total = 0;
        for (let n = await fanOut(ctx, 4); n > 0; n = await fanOut(ctx, 4)) total += n;
        return total;
      }),
    );
    expect(fanned.reduce((a, b) => a + b, 0)).toBe(events);
    const pairs = await deliveriesOf(h);
    expect(pairs).toHaveLength(events * 3);
    expect(new Set(pairs.map((p) => `${p.endpoint_id}:${p.outbox_id}`)).size).toBe(events * 3);

    // Attempt 1 fails for everyone, attempt 2 succeeds.
    const seen = new Map<string, number>();
    receiver.respond = (req) => {
      const id = req.headers['x-service-delivery-id'] as string;
      seen.set(id, (seen.get(id) ?? 0) + 1);
      return { status: seen.get(id) === 1 ? 500 : 200 };
    };
    const drain = async (ctx: AppContext) => {
      while ((await deliverDue(ctx, log, 3)) > 0);
    };
    await Promise.all([drain(h.ctx), drain(second), drain(h.ctx), drain(second)]);
    h.clock.advance(60_000);
    await Promise.all([drain(h.ctx), drain(second), drain(h.ctx), drain(second)]);

    expect(seen.size).toBe(events * 3);
    expect([...seen.values()].every((count) => count === 2)).toBe(true);
    expect(receiver.requests).toHaveLength(events * 3 * 2);
    const attempts = await attemptsOf(h);
    expect(attempts).toHaveLength(events * 3 * 2);
    expect(new Set(attempts.map((a) => `${a.delivery_id}:${a.number}`)).size).toBe(events * 3 * 2);
    const statuses = [...new Set((await deliveriesOf(h)).map((d) => d.status))].map((status) => ({ status }));
    expect(statuses).toEqual([{ status: 'delivered' }]);
  });
});
