import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/modules/accounts/accounts.service.ts';
import { RETRY_DELAYS_MS } from '../../src/modules/webhooks/delivery/delivery-policy.ts';
import { listNotifications } from '../../src/modules/webhooks/notifications.ts';
import { sendDueNotificationEmails } from '../../src/modules/notifications/notification-mail.service.ts';
import { verifyWebhook } from '@tasktracker/webhooks';
import { deliverDue } from '../../src/modules/webhooks/delivery/deliver-due.ts';
import { attemptDelivery } from '../../src/modules/webhooks/delivery/delivery-attempt.ts';
import { claimDueDeliveries, LOST_ATTEMPT_ERROR } from '../../src/modules/webhooks/delivery/delivery-claims.ts';
import { recordOutcome } from '../../src/modules/webhooks/delivery/delivery-outcomes.ts';
import { fanOut } from '../../src/modules/webhooks/delivery/fan-out.ts';
import { purgeOldDeliveries } from '../../src/worker/retention.ts';
import { startWorker, WORKER_JOBS } from '../../src/worker/run-worker.ts';
import type { Actor } from '../helpers/harness.ts';
import { outboxRows } from '../helpers/factory.ts';
import {
  captureLogger,
  createWebhookHarness,
  deliveriesOf as storedDeliveries,
  disableEndpointsExcept,
  emitEvent,
  endpointRow,
  notificationsOf,
  type Receiver,
  startDripReceiver,
  startReceiver,
  type WebhookHarness,
} from '../helpers/webhooks.ts';

const BASE = 'https://tracker.example';

describe('webhook delivery to a real HTTPS receiver', () => {
  let h: WebhookHarness;
  let admin: Actor;
  let project: { id: number; key: string };
  let receiver: Receiver;
  const { log, lines } = captureLogger();

  beforeAll(async () => {
    // Notification e-mails need a server (the harness captures what is sent) and the service's address for links.
    h = await createWebhookHarness({
      allowPrivate: true,
      config: { publicBaseUrl: BASE, smtp: { url: 'smtp://127.0.0.1:1', from: 'tracker@example.test' } },
    });
    admin = await h.actor({ role: 'admin' });
    project = await h.project(admin, 'DLV');
    // Its project.created event is out of the way before any endpoint exists.
    await fanOut(h.ctx);
    receiver = await startReceiver();
  });
  afterEach(() => {
    receiver.requests.length = 0;
    receiver.respond = () => ({ status: 200, body: 'ok' });
  });
  afterAll(async () => {
    await receiver.close();
    await h.close();
  });

  async function endpoint(body: Record<string, unknown> = {}) {
    const res = await h.request('POST', '/api/v1/webhooks/endpoints/', {
      token: admin.token,
      body: { url: receiver.url(), project: project.id, events: ['task.updated'], ...body },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data as { id: number; secret: string };
  }

  async function deliveriesOf(endpointId: number) {
    const res = await h.request('GET', `/api/v1/webhooks/deliveries/?endpoint=${endpointId}&ordering=id`, {
      token: admin.token,
    });
    return res.body.data as Array<Record<string, unknown> & { id: number }>;
  }

  const detail = async (id: number) =>
    (await h.request('GET', `/api/v1/webhooks/deliveries/${id}/`, { token: admin.token })).body.data;

  /** Runs the worker through every attempt the schedule allows, moving the clock by each delay. */
  async function runWholeSchedule() {
    await deliverDue(h.ctx, log, 100);
    for (const delay of RETRY_DELAYS_MS) {
      h.clock.advance(delay);
      await deliverDue(h.ctx, log, 100);
    }
  }

  const disableOthers = (keep: number) => disableEndpointsExcept(h, [keep]);

  it('POSTs the stored envelope bytes, signed over "{timestamp}.{raw body}", with the event and delivery ids', async () => {
    const ep = await endpoint();
    await disableOthers(ep.id);
    const eventId = await emitEvent(h, project.id, 'task.updated', { changes: { title: { from: 'a', to: 'b' } } });
    expect(await fanOut(h.ctx)).toBe(1);
    expect(await deliverDue(h.ctx, log)).toBe(1);

    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    const stored = (await outboxRows(h)).find((row) => row.event_id === eventId)!;
    expect(request!.body.equals(Buffer.from(stored.envelope, 'utf8'))).toBe(true);
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/hook');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-service-event-id']).toBe(eventId);
    const timestamp = request!.headers['x-service-timestamp'] as string;
    expect(timestamp).toBe(String(Math.floor(h.clock.nowMs() / 1000)));
    expect(request!.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(
      verifyWebhook({
        rawBody: request!.body,
        signature: request!.headers['x-service-signature'] as string,
        timestamp,
        secret: ep.secret,
        nowSeconds: Number(timestamp),
      }),
    ).toEqual({ valid: true });

    const envelope = JSON.parse(request!.body.toString('utf8'));
    expect(Object.keys(envelope)).toEqual([
      'id',
      'type',
      'api_version',
      'occurred_at',
      'source',
      'correlation_id',
      'organization',
      'actor',
      'data',
    ]);
    expect(envelope).toMatchObject({
      id: eventId,
      type: 'task.updated',
      api_version: 'v1',
      source: 'api',
      correlation_id: 'req-test',
    });
    expect(envelope.occurred_at).toMatch(/\.\d{6}Z$/);

    const [delivery] = await deliveriesOf(ep.id);
    expect(request!.headers['x-service-delivery-id']).toBe(String(delivery!.id));
    expect(delivery).toMatchObject({
      event_id: eventId,
      event_type: 'task.updated',
      status: 'delivered',
      attempts: 1,
      next_attempt_at: null,
      response_status: 200,
      error: null,
      test: false,
      replay_of: null,
    });
    expect(delivery!.delivered_at).toMatch(/Z$/);
    const history = (await detail(delivery!.id)).attempt_history;
    expect(history).toEqual([
      {
        number: 1,
        started_at: expect.any(String),
        duration_ms: expect.any(Number),
        response_status: 200,
        error: null,
        response_body: 'ok',
      },
    ]);
  });

  it('retries after exactly 1 min, 5 min, 30 min, 2 h, 6 h (no jitter), then abandons after the 6th failure', async () => {
    const ep = await endpoint();
    await disableOthers(ep.id);
    receiver.respond = () => ({ status: 503, body: 'down' });
    const eventId = await emitEvent(h, project.id);
    await fanOut(h.ctx);

    const attemptTimes: number[] = [];
    await deliverDue(h.ctx, log);
    attemptTimes.push(h.clock.nowMs());
    for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
      const [pending] = await deliveriesOf(ep.id);
      expect(pending).toMatchObject({
        status: 'pending',
        attempts: i + 1,
        response_status: 503,
        error: 'HTTP 503: the receiver did not answer 2xx',
      });
      expect(Date.parse(pending!.next_attempt_at as string) - attemptTimes[i]!).toBe(delay);
      h.clock.advance(delay - 1);
      expect(await deliverDue(h.ctx, log), `attempt ${i + 2} must not start early`).toBe(0);
      h.clock.advance(1);
      expect(await deliverDue(h.ctx, log)).toBe(1);
      attemptTimes.push(h.clock.nowMs());
    }
    expect(attemptTimes.map((t) => t - attemptTimes[0]!)).toEqual([
      0, 60_000, 360_000, 2_160_000, 9_360_000, 30_960_000,
    ]);

    const [failed] = await deliveriesOf(ep.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 6, next_attempt_at: null, delivered_at: null });
    h.clock.advance(24 * 3_600_000);
    expect(await deliverDue(h.ctx, log)).toBe(0);
    expect(receiver.requests).toHaveLength(6);
    expect(new Set(receiver.requests.map((r) => r.headers['x-service-event-id']))).toEqual(new Set([eventId]));
    expect(new Set(receiver.requests.map((r) => r.body.toString('base64'))).size).toBe(1);
    // Every attempt is signed with a fresh timestamp.
    expect(new Set(receiver.requests.map((r) => r.headers['x-service-timestamp'])).size).toBe(6);
    const history = (await detail(failed!.id)).attempt_history;
    expect(history.map((a: { number: number }) => a.number)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(history.every((a: { response_body: string }) => a.response_body === 'down')).toBe(true);

    const failedList = await h.request('GET', `/api/v1/webhooks/deliveries/?status=failed&endpoint=${ep.id}`, {
      token: admin.token,
    });
    expect(failedList.body.data.map((d: { id: number }) => d.id)).toEqual([failed!.id]);

    // The log also filters by event type: a test event is told apart from the task's.
    const test = await h.request('POST', `/api/v1/webhooks/endpoints/${ep.id}/test/`, { token: admin.token });
    expect(test.status, test.text).toBe(201);
    const ofType = async (type: string) =>
      (
        await h.request('GET', `/api/v1/webhooks/deliveries/?endpoint=${ep.id}&event_type=${type}&ordering=id`, {
          token: admin.token,
        })
      ).body.data.map((d: { id: number; event_type: string }) => [d.id, d.event_type]);
    expect(await ofType('task.updated')).toEqual([[failed!.id, 'task.updated']]);
    expect(await ofType('webhook.test')).toEqual([[expect.any(Number), 'webhook.test']]);
    expect(await ofType('task.deleted')).toEqual([]);
  });

  it('a 3xx is a failure and the redirect is never followed', async () => {
    const ep = await endpoint();
    await disableOthers(ep.id);
    receiver.respond = (req) =>
      req.url === '/hook' ? { status: 302, headers: { location: receiver.url('/moved') } } : { status: 200 };
    await emitEvent(h, project.id);
    await fanOut(h.ctx);
    await deliverDue(h.ctx, log);
    expect(receiver.requests.map((r) => r.url)).toEqual(['/hook']);
    const [delivery] = await deliveriesOf(ep.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, response_status: 302 });
    expect(delivery!.error).toMatch(/redirects are not followed/);
  });

  it('keeps at most 4 KiB of the answer in the attempt log, whatever its bytes', async () => {
    const ep = await endpoint();
    await disableOthers(ep.id);
    receiver.respond = () => ({ status: 200, body: `\0${'x'.repeat(100_000)}` });
    await emitEvent(h, project.id);
    await fanOut(h.ctx);
    await deliverDue(h.ctx, log);
    const [delivery] = await deliveriesOf(ep.id);
    expect(delivery!.status).toBe('delivered');
    // NUL (which PostgreSQL text refuses) is replaced, so any answer can be logged.
    expect((await detail(delivery!.id)).attempt_history[0].response_body).toBe(`\uFFFD${'x'.repeat(4095)}`);
  });

  it('the attempt deadline is total, not idle: a receiver dripping one byte at a time fails at the deadline', async () => {
    const drip = await startDripReceiver(40);
    const ep = await endpoint({ url: `https://hooks.test:${drip.port}/hook` });
    await disableOthers(ep.id);
    const configured = h.ctx.config.webhooks.attemptTimeoutMs;
    h.ctx.config.webhooks.attemptTimeoutMs = 300;
    try {
      await emitEvent(h, project.id);
      await fanOut(h.ctx);
      await deliverDue(h.ctx, log);
    } finally {
      h.ctx.config.webhooks.attemptTimeoutMs = configured;
      await drip.close();
    }
    const [delivery] = await deliveriesOf(ep.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, response_status: null });
    expect(delivery!.error).toMatch(/^timeout: .*300 ms/);
    const [attempt] = (await detail(delivery!.id)).attempt_history;
    // The full answer would take ~2.5 s; the attempt ended at the 300 ms deadline.
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(290);
    expect(attempt.duration_ms).toBeLessThan(2000);
  });

  it('20 consecutive abandoned deliveries disable the endpoint and notify its creator and the owners and admins who see it', async () => {
    const human = (name: string, role: 'owner' | 'admin' | 'member') =>
      createUser(h.ctx, { org: admin.org, kind: 'human', name, email: `${name.toLowerCase()}@example.test`, role });
    const owner = await human('Olga', 'owner');
    await h.addMember('DLV', owner.id);
    // An admin who is not a member of the endpoint's project cannot see it; a member is not responsible for it.
    const outsideAdmin = await human('Ivan', 'admin');
    const member = await human('Mona', 'member');
    await h.addMember('DLV', member.id);
    const ep = await endpoint();
    await disableOthers(ep.id);
    receiver.respond = () => ({ status: 500, body: 'broken' });
    for (let i = 0; i < 20; i += 1) await emitEvent(h, project.id);
    await fanOut(h.ctx);

    // A test delivery that is abandoned too never counts toward auto-disable.
    const test = await h.request('POST', `/api/v1/webhooks/endpoints/${ep.id}/test/`, { token: admin.token });
    expect(test.status).toBe(201);
    await runWholeSchedule();

    const deliveries = await deliveriesOf(ep.id);
    expect(deliveries).toHaveLength(21);
    expect(deliveries.every((d) => d.status === 'failed' && d.attempts === 6)).toBe(true);
    expect(receiver.requests).toHaveLength(21 * 6);

    const read = await h.request('GET', `/api/v1/webhooks/endpoints/${ep.id}/`, { token: admin.token });
    expect(read.body.data).toMatchObject({
      enabled: false,
      disabled_reason: 'Disabled automatically after 20 consecutive abandoned deliveries.',
    });

    const notes = await notificationsOf(h, 'endpoint_disabled');
    expect(notes.map((n) => n.user_id)).toEqual([admin.accountId, owner.id].sort((a, b) => a - b));
    for (const note of notes)
      expect(note).toMatchObject({
        reason: 'endpoint_disabled',
        subject: `Webhook endpoint ${ep.id} was disabled`,
        project_id: project.id,
        task_id: null,
        actor_id: null,
        in_app: 1,
      });
    expect(JSON.parse(notes[0]!.data)).toEqual({
      endpoint_id: ep.id,
      url: receiver.url(),
      last_error: 'HTTP 500: the receiver did not answer 2xx',
      link: `/settings/webhooks/${ep.id}`,
    });
    expect(notes.map((n) => n.user_id)).not.toContain(outsideAdmin.id);
    expect(notes.map((n) => n.user_id)).not.toContain(member.id);
    // In the owner's inbox like any other notification, about no task.
    const inbox = await h.request('GET', '/api/v1/me/notifications/?reason=endpoint_disabled', {
      token: (await h.tokenFor(owner.id)).token,
    });
    expect(inbox.body.data).toEqual([
      {
        id: notes.find((n) => n.user_id === owner.id)!.id,
        reason: 'endpoint_disabled',
        created_at: expect.any(String),
        read_at: null,
        actor: null,
        task: null,
        comment: null,
        text: `Webhook endpoint ${ep.id} was disabled`,
      },
    ]);
    // The e-mail (on by default for this reason) goes with the other notification e-mails, to
    // those with an address: the service account that created the endpoint has none.
    expect(notes.filter((n) => n.email_due_at !== null).map((n) => n.user_id)).toEqual([owner.id]);
    h.clock.advance(h.ctx.config.notifications.emailDelaySeconds * 1000);
    expect(await sendDueNotificationEmails(h.ctx, log)).toBe(1);
    expect(h.mail).toEqual([
      expect.objectContaining({
        to: ['olga@example.test'],
        subject: `Webhook endpoint ${ep.id} was disabled`,
        text: expect.stringContaining(`"enabled": true`),
        headers: expect.objectContaining({ 'List-Unsubscribe': expect.stringContaining('/unsubscribe') }),
      }),
    ]);
    expect(h.mail[0]!.text).toContain(`${BASE}/settings/webhooks/${ep.id}\n`);
    expect((await notificationsOf(h, 'endpoint_disabled')).find((n) => n.user_id === owner.id)!.emailed_at).toMatch(
      /Z$/,
    );
    // Each is announced to its recipient alone, caused by the worker.
    const announced = await h.ctx.db
      .selectFrom('event_outbox')
      .select(['recipient_id', 'envelope'])
      .where('type', '=', 'notification.created')
      .where('recipient_id', 'in', [admin.accountId, owner.id, outsideAdmin.id, member.id])
      .orderBy('recipient_id')
      .execute();
    expect(
      announced.map((row) => {
        const envelope = JSON.parse(row.envelope);
        return [row.recipient_id, envelope.source, envelope.actor.id, envelope.data.notification.reason];
      }),
    ).toEqual([admin.accountId, owner.id].sort((a, b) => a - b).map((id) => [id, 'scheduler', 0, 'endpoint_disabled']));
    // The operator's view at the command line reads the same notifications.
    const listed = await listNotifications(h.ctx, { org: admin.org, limit: 10 });
    expect(listed.notifications.filter((n) => n.reason === 'endpoint_disabled').map((n) => n.user)).toEqual(
      notes.map((n) => n.user_id).sort((a, b) => b - a),
    );
    expect(
      lines.some((l) => l.level === 40 && l.endpoint_id === ep.id && /disabled after 20 consecutive/.test(l.msg)),
    ).toBe(true);
    // The audit log names the worker as the actor, in the transaction that disabled it.
    const audited = await h.ctx.db
      .selectFrom('audit_records')
      .select(['action', 'actor_id', 'actor_label', 'source', 'address', 'target_type', 'before', 'after'])
      .where('target_id', '=', ep.id)
      .where('target_type', '=', 'webhook')
      .where('action', '=', 'webhook.disabled')
      .execute();
    expect(audited).toEqual([
      {
        action: 'webhook.disabled',
        actor_id: null,
        actor_label: 'system',
        source: 'scheduler',
        address: null,
        target_type: 'webhook',
        before: '{"enabled":true}',
        after: '{"enabled":false,"reason":"Disabled automatically after 20 consecutive abandoned deliveries."}',
      },
    ]);

    // While disabled: no new deliveries, and tests and replays are refused.
    await emitEvent(h, project.id);
    await fanOut(h.ctx);
    expect(await deliveriesOf(ep.id)).toHaveLength(21);
    expect(
      (await h.request('POST', `/api/v1/webhooks/endpoints/${ep.id}/test/`, { token: admin.token })).body.error.code,
    ).toBe('ENDPOINT_DISABLED');
    expect(
      (await h.request('POST', `/api/v1/webhooks/deliveries/${deliveries[0]!.id}/replay/`, { token: admin.token }))
        .status,
    ).toBe(409);

    // Re-enabling resets the count: one more abandoned delivery does not disable it again.
    const enabled = await h.request('PATCH', `/api/v1/webhooks/endpoints/${ep.id}/`, {
      token: admin.token,
      body: { enabled: true },
    });
    expect(enabled.body.data).toMatchObject({ enabled: true, disabled_reason: null });
    const counter = await endpointRow(h, ep.id);
    expect(counter.consecutive_failures).toBe(0);
    await emitEvent(h, project.id);
    await fanOut(h.ctx);
    await runWholeSchedule();
    expect(
      (await h.request('GET', `/api/v1/webhooks/endpoints/${ep.id}/`, { token: admin.token })).body.data.enabled,
    ).toBe(true);
  });

  it('a delivered delivery resets the consecutive count; replays count, test deliveries do not', async () => {
    const ep = await endpoint();
    await disableOthers(ep.id);
    const failures = async () => (await endpointRow(h, ep.id)).consecutive_failures;

    receiver.respond = () => ({ status: 500 });
    await emitEvent(h, project.id);
    await emitEvent(h, project.id);
    await fanOut(h.ctx);
    await runWholeSchedule();
    expect(await failures()).toBe(2);

    const [first] = await deliveriesOf(ep.id);
    await h.request('POST', `/api/v1/webhooks/deliveries/${first!.id}/replay/`, { token: admin.token });
    await runWholeSchedule();
    expect(await failures()).toBe(3);

    receiver.respond = () => ({ status: 204 });
    await h.request('POST', `/api/v1/webhooks/endpoints/${ep.id}/test/`, { token: admin.token });
    await deliverDue(h.ctx, log);
    expect(await failures()).toBe(3);

    await emitEvent(h, project.id);
    await fanOut(h.ctx);
    await deliverDue(h.ctx, log);
    expect(await failures()).toBe(0);
  });

  it('replay re-sends the original envelope bytes and event id as a new delivery, signed afresh', async () => {
    const ep = await endpoint();
    await disableOthers(ep.id);
    const eventId = await emitEvent(h, project.id);
    await fanOut(h.ctx);
    await deliverDue(h.ctx, log);
    const [original] = await deliveriesOf(ep.id);

    h.clock.advance(3 * 3_600_000);
    const replay = await h.request('POST', `/api/v1/webhooks/deliveries/${original!.id}/replay/`, {
      token: admin.token,
    });
    expect(replay.status).toBe(201);
    expect(replay.body.data).toMatchObject({
      event_id: eventId,
      status: 'pending',
      attempts: 0,
      replay_of: original!.id,
      endpoint: ep.id,
    });
    expect(replay.body.data.id).not.toBe(original!.id);
    await deliverDue(h.ctx, log);

    const [first, second] = receiver.requests;
    expect(second!.body.equals(first!.body)).toBe(true);
    expect(second!.headers['x-service-event-id']).toBe(eventId);
    expect(second!.headers['x-service-delivery-id']).toBe(String(replay.body.data.id));
    const timestamp = second!.headers['x-service-timestamp'] as string;
    expect(Number(timestamp) - Number(first!.headers['x-service-timestamp'])).toBe(3 * 3600);
    expect(
      verifyWebhook({
        rawBody: second!.body,
        signature: second!.headers['x-service-signature'] as string,
        timestamp,
        secret: ep.secret,
        nowSeconds: Math.floor(h.clock.nowMs() / 1000),
      }),
    ).toEqual({ valid: true });
    expect((await deliveriesOf(ep.id)).map((d) => d.status)).toEqual(['delivered', 'delivered']);

    // A delivery still being attempted cannot be replayed.
    receiver.respond = () => ({ status: 500 });
    await emitEvent(h, project.id);
    await fanOut(h.ctx);
    const pending = (await deliveriesOf(ep.id)).at(-1)!;
    const refused = await h.request('POST', `/api/v1/webhooks/deliveries/${pending.id}/replay/`, {
      token: admin.token,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('DELIVERY_PENDING');
  });

  it('test sends webhook.test to that one endpoint only', async () => {
    const a = await endpoint({ events: ['task.created', 'task.updated'] });
    const b = await endpoint({ events: ['task.created', 'task.updated'] });
    await disableEndpointsExcept(h, [a.id, b.id]);

    const res = await h.request('POST', `/api/v1/webhooks/endpoints/${a.id}/test/`, { token: admin.token });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ endpoint: a.id, event_type: 'webhook.test', status: 'pending', test: true });
    expect(await fanOut(h.ctx)).toBe(0);
    await deliverDue(h.ctx, log);

    expect(receiver.requests).toHaveLength(1);
    const envelope = JSON.parse(receiver.requests[0]!.body.toString());
    expect(envelope).toMatchObject({
      type: 'webhook.test',
      id: res.body.data.event_id,
      actor: { id: admin.accountId },
      data: { endpoint: { id: a.id } },
    });
    expect(await deliveriesOf(b.id)).toEqual([]);
    expect((await deliveriesOf(a.id))[0]).toMatchObject({ status: 'delivered', test: true });
  });

  it('a worker that dies mid-attempt: the delivery is due again after the lease and completes per the schedule', async () => {
    const ep = await endpoint();
    await disableOthers(ep.id);
    await emitEvent(h, project.id);
    await fanOut(h.ctx);

    // The worker claims and sends, then dies before recording the outcome.
    const [claim] = await claimDueDeliveries(h.ctx, 10);
    const lostResult = await attemptDelivery(h.ctx, claim!);
    expect(receiver.requests).toHaveLength(1);

    const lease = h.ctx.config.webhooks.leaseMs;
    expect(await deliverDue(h.ctx, log)).toBe(0);
    h.clock.advance(lease - 1);
    expect(await deliverDue(h.ctx, log)).toBe(0);
    h.clock.advance(1);
    receiver.respond = () => ({ status: 500 });
    expect(await deliverDue(h.ctx, log)).toBe(1);
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[1]!.headers['x-service-event-id']).toBe(
      receiver.requests[0]!.headers['x-service-event-id'],
    );

    // The dead worker's late write is fenced off by the lease token.
    await recordOutcome(h.ctx, log, claim!, lostResult);
    const [delivery] = await deliveriesOf(ep.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, response_status: 500 });
    expect(Date.parse(delivery!.next_attempt_at as string)).toBe(h.clock.nowMs() + RETRY_DELAYS_MS[0]);

    receiver.respond = () => ({ status: 200 });
    h.clock.advance(RETRY_DELAYS_MS[0]);
    expect(await deliverDue(h.ctx, log)).toBe(1);
    const done = await detail(delivery!.id);
    expect(done).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(
      done.attempt_history.map((a: { number: number; error: string | null }) => [
        a.number,
        a.error === LOST_ATTEMPT_ERROR,
      ]),
    ).toEqual([
      [1, true],
      [1, false],
      [2, false],
    ]);
  });

  it('the worker loop fans out and delivers on its own and stops cleanly', async () => {
    const ep = await endpoint();
    await disableOthers(ep.id);
    const worker = startWorker(
      h.ctx,
      log,
      WORKER_JOBS.filter((j) => j.name === 'fan-out' || j.name === 'deliver-due'),
    );
    try {
      await emitEvent(h, project.id);
      for (let i = 0; i < 200 && receiver.requests.length === 0; i += 1) await new Promise((r) => setTimeout(r, 25));
    } finally {
      await worker.stop();
    }
    expect(receiver.requests).toHaveLength(1);
    expect((await deliveriesOf(ep.id))[0]).toMatchObject({ status: 'delivered' });
  });

  it('finished deliveries are purged after WEBHOOK_RETENTION_DAYS, and pending ones of an endpoint disabled that long; the others and their events stay', async () => {
    const kept = await endpoint();
    const stale = await endpoint();
    const recentlyDisabled = await endpoint();
    await disableEndpointsExcept(h, [kept.id, stale.id, recentlyDisabled.id]);
    await emitEvent(h, project.id);
    expect(await fanOut(h.ctx)).toBe(1);
    const disable = async (id: number) =>
      expect(
        (
          await h.request('PATCH', `/api/v1/webhooks/endpoints/${id}/`, {
            token: admin.token,
            body: { enabled: false },
          })
        ).status,
      ).toBe(200);
    await disable(stale.id);
    h.clock.advance((h.ctx.config.webhooks.retentionDays + 1) * 86_400_000);
    await disable(recentlyDisabled.id);
    const pending = async (id: number) => storedDeliveries(h, { endpoint: id, status: 'pending' });
    const keptPending = [...(await pending(kept.id)), ...(await pending(recentlyDisabled.id))];
    expect(keptPending).toHaveLength(2);
    expect(await pending(stale.id)).toHaveLength(1);
    const finished = (await storedDeliveries(h)).filter((d) => d.status !== 'pending');
    expect(finished.length).toBeGreaterThan(0);

    expect(await purgeOldDeliveries(h.ctx)).toBeGreaterThan(finished.length);

    // Every other endpoint of the file was disabled long ago (straight in the table): its pending deliveries went too.
    const left = await storedDeliveries(h);
    expect(left.map((d) => d.id).sort()).toEqual(keptPending.map((d) => d.id).sort());
    const events = await outboxRows(h);
    expect(events.map((e) => e.id).sort()).toEqual([...new Set(keptPending.map((d) => d.outbox_id))].sort());
  });
});
