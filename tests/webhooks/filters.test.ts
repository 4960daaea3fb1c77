import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deliverDue } from '../../src/modules/webhooks/delivery/deliver-due.ts';
import { fanOut } from '../../src/modules/webhooks/delivery/fan-out.ts';
import { addLabel, createTask } from '../helpers/factory.ts';
import type { Actor } from '../helpers/harness.ts';
import {
  captureLogger,
  createWebhookHarness,
  disableEndpointsExcept,
  endpointRow,
  type Receiver,
  startReceiver,
  type WebhookHarness,
} from '../helpers/webhooks.ts';

/** Webhook filters (docs/api/webhooks.md, "Filters"), through fan-out and real HTTPS delivery. */
describe('webhook endpoint filters', () => {
  let h: WebhookHarness;
  let admin: Actor;
  let member: Actor;
  let receiver: Receiver;
  const { log } = captureLogger();

  beforeAll(async () => {
    h = await createWebhookHarness({ allowPrivate: true });
    admin = await h.actor({ role: 'admin' });
    member = await h.actor({ org: admin.org, role: 'member' });
    await h.project(admin, 'FLT');
    await h.project(admin, 'HID');
    await h.addMember('FLT', member.accountId, 'member');
    await addLabel(h, 'FLT', 'bug');
    await addLabel(h, 'HID', 'bug');
    receiver = await startReceiver();
  });
  afterEach(() => {
    receiver.requests.length = 0;
  });
  afterAll(async () => {
    await receiver.close();
    await h.close();
  });

  async function endpoint(actor: Actor, body: Record<string, unknown>) {
    const res = await h.request('POST', '/api/v1/webhooks/endpoints/', {
      token: actor.token,
      body: { url: receiver.url(), ...body },
    });
    expect(res.status, res.text).toBe(201);
    await disableEndpointsExcept(h, [res.body.data.id]);
    return res.body.data as { id: number; filter: string | null };
  }

  /** Fans out and delivers what is pending; the events the receiver got, as `type key`. */
  async function received(): Promise<string[]> {
    await fanOut(h.ctx);
    await deliverDue(h.ctx, log, 100);
    const got = receiver.requests.map((r) => {
      const envelope = JSON.parse(r.body.toString('utf8'));
      return `${envelope.type} ${envelope.data.task.key}`;
    });
    receiver.requests.length = 0;
    return got;
  }

  const put = async (actor: Actor, key: string, body: Record<string, unknown>) => {
    const res = await h.request('PUT', `/api/v1/tasks/${key}/`, { token: actor.token, body });
    expect(res.status, res.text).toBe(200);
  };
  const remove = async (key: string) => {
    const res = await h.request('DELETE', `/api/v1/tasks/${key}/`, { token: admin.token });
    expect(res.status, res.text).toBe(204);
  };

  it('is validated on save: 400 INVALID_QUERY with its position, and nothing changes', async () => {
    const bad = await h.request('POST', '/api/v1/webhooks/endpoints/', {
      token: admin.token,
      body: { url: receiver.url(), filter: 'label = bug AND stauts = Done' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({
      code: 'INVALID_QUERY',
      message: "unknown field 'stauts' at 16; did you mean 'status'?",
      details: { position: 16 },
    });
    const before = (await h.request('GET', '/api/v1/webhooks/endpoints/', { token: admin.token })).body.data.length;
    expect(before).toBe(0);

    const ep = await endpoint(admin, { filter: 'label = bug' });
    expect(ep.filter).toBe('label = bug');
    const patched = await h.request('PATCH', `/api/v1/webhooks/endpoints/${ep.id}/`, {
      token: admin.token,
      body: { filter: 'due < "2026' },
    });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toMatchObject({ code: 'INVALID_QUERY', details: { position: 6 } });
    expect((await endpointRow(h, ep.id)).filter).toBe('label = bug');

    const cleared = await h.request('PATCH', `/api/v1/webhooks/endpoints/${ep.id}/`, {
      token: admin.token,
      body: { filter: null },
    });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.data.filter).toBeNull();
    const read = await h.request('GET', `/api/v1/webhooks/endpoints/${ep.id}/`, { token: admin.token });
    expect(read.body.data.filter).toBeNull();
  });

  it('sends the events of matching tasks, the change that makes a task leave, and task.deleted of a task that matched', async () => {
    await endpoint(admin, {
      filter: 'label = bug AND status_category = todo',
      events: ['task.created', 'task.updated', 'task.status_changed', 'task.deleted'],
    });
    const a = (await createTask(h, admin, 'FLT', { title: 'a', labels: ['bug'] })).key;
    const b = (await createTask(h, admin, 'FLT', { title: 'b' })).key;
    expect(await received()).toEqual([`task.created ${a}`]);

    await put(admin, b, { title: 'b2' });
    expect(await received()).toEqual([]);
    // B enters the filter.
    await put(admin, b, { labels: ['bug'] });
    expect(await received()).toEqual([`task.updated ${b}`]);
    // A leaves it: the change that makes it leave is sent, then nothing more about A. Its
    // earlier change records are gone (as compaction removes them): the record of the change
    // itself tells what A was before.
    await h.ctx.db.deleteFrom('task_changes').where('task_key', '=', a).execute();
    await put(admin, a, { status: 'In Progress' });
    expect(await received()).toEqual([`task.updated ${a}`, `task.status_changed ${a}`]);
    await put(admin, a, { title: 'a2' });
    await remove(a);
    expect(await received()).toEqual([]);
    // B matched right before its deletion.
    await remove(b);
    expect(await received()).toEqual([`task.deleted ${b}`]);
  });

  it("is read as the endpoint's governing account: me() is that account, and only its projects match", async () => {
    await endpoint(member, { filter: 'assignee = me() OR label = bug', events: ['task.created'] });
    const mine = (await createTask(h, admin, 'FLT', { title: 'mine', assignee: member.accountId })).key;
    await createTask(h, admin, 'FLT', { title: "the admin's", assignee: admin.accountId });
    // A bug in a project the member cannot see is not delivered, filter or not.
    await createTask(h, admin, 'HID', { title: 'hidden bug', labels: ['bug'] });
    expect(await received()).toEqual([`task.created ${mine}`]);
  });

  it('events no task write raised are judged by the task as it is now', async () => {
    await endpoint(admin, { filter: 'label = bug', events: ['comment.created'] });
    const bug = (await createTask(h, admin, 'FLT', { title: 'bug', labels: ['bug'] })).key;
    const other = (await createTask(h, admin, 'FLT', { title: 'other' })).key;
    for (const key of [bug, other]) {
      const res = await h.request('POST', `/api/v1/tasks/${key}/comments/`, {
        token: admin.token,
        body: { body: 'hello' },
      });
      expect(res.status, res.text).toBe(201);
    }
    expect(await received()).toEqual([`comment.created ${bug}`]);
  });
});
