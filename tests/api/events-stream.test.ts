import type { AddressInfo } from 'node:net';
import type { EventSourceMessage } from 'eventsource-parser';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/events/record-event.ts';
import { revokeToken } from '../../src/identity/tokens.service.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { openLive, openWriteElsewhere, type LiveClient } from '../helpers/live.ts';

const PATH = '/api/v1/events/stream/';

describe('the event stream for tokens', () => {
  let h: TestHarness;
  let base: string;
  let admin: Actor;
  const open: LiveClient[] = [];

  /** Opens the stream with `token` and waits for `ready`. */
  async function stream(token: string, query = '', headers: Record<string, string> = {}): Promise<LiveClient> {
    const client = await openLive(base, {
      path: `${PATH}${query}`,
      headers: { authorization: `Bearer ${token}`, ...headers },
    });
    open.push(client);
    expect(client.status, client.body).toBe(200);
    await client.waitFor((e) => e.event === 'ready');
    return client;
  }

  const events = (client: LiveClient): EventSourceMessage[] => client.events.filter((e) => e.event !== 'ready');

  async function createTask(token: string, project: string, title: string): Promise<string> {
    const res = await h.request('POST', `/api/v1/projects/${project}/tasks/`, { token, body: { title } });
    expect(res.status, res.text).toBe(201);
    return res.body.data.key;
  }

  /** Waits for the task.created event of `key`, and returns it. */
  const created = (client: LiveClient, key: string) =>
    client.waitFor((e) => e.event === 'task.created' && JSON.parse(e.data).data.task.key === key);

  beforeAll(async () => {
    h = await createHarness({
      config: { live: { heartbeatMs: 15_000, pollMs: 100, maxStreamsPerPerson: 4, maxStreamsPerOrganization: 100 } },
    });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    admin = await h.actor({ role: 'admin' });
    await h.project(admin, 'EVA');
    await h.project(admin, 'EVB');
  });
  afterAll(async () => {
    for (const client of open) client.close();
    await h.close();
  });

  it('sends each event as it commits: the envelope as data, the type as event, the event id as id', async () => {
    const client = await stream(admin.token);
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const key = await createTask(admin.token, 'EVA', 'Streamed');
    const event = await created(client, key);
    const envelope = JSON.parse(event.data);
    expect(event.id).toBe(envelope.id);
    expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(envelope).toMatchObject({ type: 'task.created', source: 'api', actor: { id: admin.accountId } });
    const row = await h.ctx.db
      .selectFrom('event_outbox')
      .select('envelope')
      .where('event_id', '=', event.id!)
      .executeTakeFirstOrThrow();
    expect(event.data).toBe(row.envelope);
    client.close();
  });

  it('filters by types and project', async () => {
    const client = await stream(admin.token, '?types=task.updated,comment.created&project=EVB');
    const inA = await createTask(admin.token, 'EVA', 'Not this project');
    const inB = await createTask(admin.token, 'EVB', 'Not this type');
    await h.request('PUT', `/api/v1/tasks/${inA}/`, { token: admin.token, body: { title: 'Changed in A' } });
    await h.request('PUT', `/api/v1/tasks/${inB}/`, { token: admin.token, body: { title: 'Changed in B' } });
    await h.request('POST', `/api/v1/tasks/${inB}/comments/`, { token: admin.token, body: { body: 'Last' } });
    await client.waitFor((e) => e.event === 'comment.created');
    expect(events(client).map((e) => [e.event, JSON.parse(e.data).data.task.key])).toEqual([
      ['task.updated', inB],
      ['comment.created', inB],
    ]);
    client.close();

    for (const query of ['?types=task.exploded', '?types=', '?after=nope']) {
      const bad = await h.request('GET', `${PATH}${query}`, { token: admin.token });
      expect(bad.status, query).toBe(400);
      expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    }
    const hidden = await h.request('GET', `${PATH}?project=NOPE`, { token: admin.token });
    expect(hidden.status).toBe(404);
  });

  it('sends only what the token sees: its projects, its scopes, its organization', async () => {
    const restricted = await h.tokenFor(admin.accountId, undefined, ['EVA']);
    const projectsOnly = await h.tokenFor(admin.accountId, ['projects:read']);
    const stranger = await h.actor({ role: 'admin' });
    const [r, p, s] = [await stream(restricted.token), await stream(projectsOnly.token), await stream(stranger.token)];
    await createTask(admin.token, 'EVB', 'Hidden from the restricted token');
    const visible = await createTask(admin.token, 'EVA', 'Seen by the restricted token');
    const projects = (await h.request('GET', '/api/v1/projects/', { token: admin.token })).body.data;
    const eva = projects.find((x: { key: string }) => x.key === 'EVA');
    await h.request('PATCH', `/api/v1/projects/${eva.id}/`, { token: admin.token, body: { description: 'Seen' } });
    // The stranger's own events close its watch: anything of the other organization came before it.
    await h.project(stranger, 'STR');

    await r.waitFor((e) => e.event === 'project.updated');
    expect(events(r).map((e) => e.event)).toEqual(['task.created', 'project.updated']);
    expect(JSON.parse(events(r)[0]!.data).data.task.key).toBe(visible);
    await p.waitFor((e) => e.event === 'project.updated');
    expect(events(p).map((e) => e.event)).toEqual(['project.updated']);
    await s.waitFor((e) => e.event === 'membership.changed');
    const projectKey = (data: { project?: { key: string }; membership?: { project: { key: string } } }) =>
      (data.project ?? data.membership!.project).key;
    expect(events(s).map((e) => [e.event, projectKey(JSON.parse(e.data).data)])).toEqual([
      ['project.created', 'STR'],
      ['membership.changed', 'STR'],
    ]);
    for (const client of [r, p, s]) client.close();
  });

  it('resumes after Last-Event-ID or ?after= without loss or duplicates', async () => {
    const first = await stream(admin.token, '?project=EVA');
    const k1 = await createTask(admin.token, 'EVA', 'One');
    const seen = await created(first, k1);
    first.close();
    await first.ended;

    const missed = [
      await createTask(admin.token, 'EVA', 'Two'),
      await createTask(admin.token, 'EVA', 'Three'),
      await createTask(admin.token, 'EVA', 'Four'),
    ];
    for (const resume of [{ headers: { 'last-event-id': seen.id! } }, { query: `&after=${seen.id}` }]) {
      const again = await stream(admin.token, `?project=EVA${resume.query ?? ''}`, resume.headers);
      expect(again.events[0]).toMatchObject({ event: 'ready', id: seen.id });
      await created(again, missed[2]!);
      expect(events(again).map((e) => JSON.parse(e.data).data.task.key)).toEqual(missed);
      again.close();
    }

    // The header is what a reconnecting client sends: it wins over the URL it first opened.
    const both = await stream(admin.token, `?project=EVA&after=evt_${'0'.repeat(32)}`, { 'last-event-id': seen.id! });
    await created(both, missed[2]!);
    expect(events(both).map((e) => JSON.parse(e.data).data.task.key)).toEqual(missed);
    both.close();

    // A stream that saw nothing still resumes from its `ready`.
    const quiet = await stream(admin.token, '?project=EVA');
    const from = quiet.events[0]!.id!;
    quiet.close();
    const later = await createTask(admin.token, 'EVA', 'Five');
    const resumed = await stream(admin.token, '?project=EVA', { 'last-event-id': from });
    await created(resumed, later);
    expect(events(resumed).map((e) => JSON.parse(e.data).data.task.key)).toEqual([later]);
    resumed.close();
  });

  it('answers 410 EVENTS_EXPIRED for a resume point it no longer holds or older than the window', async () => {
    const unknown = await h.request('GET', `${PATH}?after=evt_${'0'.repeat(32)}`, { token: admin.token });
    expect(unknown.status).toBe(410);
    expect(unknown.body.error).toMatchObject({ code: 'EVENTS_EXPIRED', details: { window_hours: 30 * 24 - 1 } });

    const key = await createTask(admin.token, 'EVA', 'Old news');
    const row = await h.ctx.db
      .selectFrom('event_outbox')
      .select('event_id')
      .where('type', '=', 'task.created')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(key).toBeTruthy();
    const fresh = await h.request('HEAD', `${PATH}?after=${row.event_id}`, { token: admin.token });
    expect(fresh.status).toBe(200);
    h.clock.advance(30 * 24 * 3_600_000 - 3_600_000 + 1);
    const old = await h.request('GET', `${PATH}?after=${row.event_id}`, { token: admin.token });
    expect(old.status).toBe(410);
    expect(old.body.error.code).toBe('EVENTS_EXPIRED');
    h.clock.advance(-(30 * 24 * 3_600_000 - 3_600_000 + 1));
  });

  it('is for tokens, caps the streams of an account, and ends a stream whose token is revoked', async () => {
    const none = await h.request('GET', PATH);
    expect(none.status).toBe(401);

    const account = await h.actor({ role: 'member' });
    const streams = [];
    for (let i = 0; i < 4; i++) streams.push(await stream(account.token));
    const refused = await h.request('GET', PATH, { token: account.token });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    for (const client of streams.slice(1)) client.close();
    await Promise.all(streams.slice(1).map((c) => c.ended));

    await revokeToken(h.ctx, account.tokenId);
    // Any write wakes the hub, which authenticates its streams' tokens again first.
    await createTask(admin.token, 'EVA', 'Wake up');
    await streams[0]!.ended;
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'PostgreSQL: holds a later commit behind an earlier transaction still running, and sends both in order',
    async () => {
      const client = await stream(admin.token, '?types=task.created,project.updated');
      const org = await h.ctx.db
        .selectFrom('organizations')
        .select(['id', 'slug', 'name'])
        .where('slug', '=', admin.org)
        .executeTakeFirstOrThrow();
      const project = await h.ctx.db
        .selectFrom('projects')
        .select('id')
        .where('key', '=', 'EVA')
        .executeTakeFirstOrThrow();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let recorded!: () => void;
      const isRecorded = new Promise<void>((resolve) => (recorded = resolve));
      let earlier = '';
      const slow = h.ctx.db.transaction().execute(async (trx) => {
        earlier = await recordEvent(trx, {
          type: 'project.updated',
          origin: {
            organization: org,
            actor: { id: admin.accountId, email: '', name: 'bot' },
            source: 'api',
            correlationId: 'slow',
          },
          projectId: project.id,
          occurredAt: h.clock.nowIso(),
          data: { project: {}, changes: {} },
        });
        recorded();
        await released;
      });
      await isRecorded;
      const later = await createTask(admin.token, 'EVA', 'Committed first');
      // A stream opened now starts before the transaction still running, not after the later commit.
      const second = await stream(admin.token);
      const laterId = (
        await h.ctx.db
          .selectFrom('event_outbox')
          .select('event_id')
          .where('type', '=', 'task.created')
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow()
      ).event_id;
      expect(second.events[0]!.id).not.toBe(laterId);
      release();
      await slow;
      await created(client, later);
      expect(events(client).map((e) => e.id)).toEqual([earlier, laterId]);
      second.close();
      client.close();
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL)(
    'PostgreSQL: a long write transaction in another database of the server does not hold events back',
    async () => {
      const client = await stream(admin.token, '?types=task.created');
      const elsewhere = await openWriteElsewhere(h.ctx.database.pgClientConfig!);
      try {
        // Snapshots of this database report it among the transactions still running.
        const { rows } = await sql<{
          xmin: string;
        }>`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`.execute(h.ctx.db);
        expect(Number(rows[0]!.xmin)).toBeLessThanOrEqual(elsewhere.xid);
        const key = await createTask(admin.token, 'EVA', 'Not held back');
        await client.waitFor((e) => e.event === 'task.created' && JSON.parse(e.data).data.task.key === key, {
          timeoutMs: 10_000,
        });
        expect(await elsewhere.isOpen()).toBe(true);
      } finally {
        await elsewhere.end();
        client.close();
      }
    },
  );
});
