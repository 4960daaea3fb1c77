import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../src/http/pagination.ts';
import { purgeOldChanges } from '../../src/worker/retention.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { HOST, person } from '../helpers/people.ts';

const DAY_MS = 86_400_000;

/**
 * Retention of the changes feed and of the live stream's table (docs/operating/retention.md):
 * the feed is compacted so a walk from the start still copies every task, and a walk that
 * retention could have cut short is refused with 410 RESYNC_REQUIRED, never answered with a gap.
 */
describe('retention of the changes feed and live events', () => {
  let h: TestHarness;
  let actor: Actor;

  const create = async (title: string) =>
    (await h.request('POST', '/api/v1/projects/KEEP/tasks/', { token: actor.token, body: { title } })).body.data;
  const rename = (key: string, title: string) =>
    h.request('PUT', `/api/v1/tasks/${key}/`, { token: actor.token, body: { title } });
  const remove = (key: string) => h.request('DELETE', `/api/v1/tasks/${key}/`, { token: actor.token });
  const feed = (query: Record<string, string>) =>
    h.request('GET', `/api/v1/changes/tasks/?${new URLSearchParams({ cursor: '', ...query })}`, {
      token: actor.token,
    });
  const sweep = async () => {
    while (await purgeOldChanges(h.ctx));
  };
  const now = () => new Date(h.clock.nowMs()).toISOString();
  /** Every change of a walk from the start, page by page. */
  const walk = async (query: Record<string, string> = {}) => {
    const changes: Array<{ id: number; action: string; key: string; task?: { title: string } }> = [];
    let cursor = '';
    for (;;) {
      const res = await feed({ ...query, cursor, limit: '2' });
      expect(res.status, res.text).toBe(200);
      changes.push(...res.body.data.changes);
      if (!res.body.pagination.has_more) return changes;
      cursor = res.body.pagination.next_cursor;
    }
  };
  const liveEventIds = async () =>
    (await h.ctx.db.selectFrom('live_events').select('id').orderBy('id').execute()).map((row) => row.id);

  beforeAll(async () => {
    h = await createHarness();
    actor = await h.actor();
    await h.project(actor, 'KEEP');
  });
  afterAll(() => h.close());

  let startedAt: string;
  let renamed: { key: string };
  let touchedLater: { key: string };
  let deleted: { key: string };

  it('keeps every record while nothing is older than the retention, and a since older than it is still answered', async () => {
    startedAt = now();
    renamed = await create('Renamed');
    await rename(renamed.key, 'Renamed once');
    await rename(renamed.key, 'Renamed twice');
    touchedLater = await create('Touched later');
    deleted = await create('Deleted');
    await remove(deleted.key);
    const before = await walk();
    h.clock.advance(10 * DAY_MS);
    await sweep();
    expect(await walk()).toEqual(before);
    const res = await feed({ since: '2020-01-01T00:00:00Z' });
    expect(res.status).toBe(200);
    expect(res.body.data.changes).toHaveLength(before.length);
  });

  it('after CHANGES_RETENTION_DAYS a walk from the start still copies every task, from its latest record', async () => {
    expect(h.ctx.config.retention.changesDays).toBe(90);
    h.clock.advance(90 * DAY_MS);
    const fresh = await create('Fresh');
    await rename(touchedLater.key, 'Touched later, renamed');
    await sweep();

    const changes = await walk();
    expect(changes.map((c) => [c.key, c.action, c.task?.title])).toEqual([
      [renamed.key, 'updated', 'Renamed twice'],
      [fresh.key, 'created', 'Fresh'],
      [touchedLater.key, 'updated', 'Touched later, renamed'],
    ]);
    // The copy a walk builds is exactly the tasks there are.
    const tasks = (await h.request('GET', '/api/v1/projects/KEEP/tasks/?limit=200', { token: actor.token })).body.data;
    expect(changes.map((c) => c.key).sort()).toEqual(tasks.map((t: { key: string }) => t.key).sort());
  });

  it('a since before the purged deletion records is refused with 410 RESYNC_REQUIRED; a later one is answered', async () => {
    const cutoff = new Date(h.clock.nowMs() - 90 * DAY_MS).toISOString().replace('Z', '000Z');
    for (const since of [startedAt, new Date(h.clock.nowMs() - 91 * DAY_MS).toISOString()]) {
      const res = await feed({ since });
      expect(res.status, since).toBe(410);
      expect(res.body).toEqual({
        success: false,
        error: {
          code: 'RESYNC_REQUIRED',
          message: expect.stringContaining('walk the feed again from the start'),
          details: { purged_before: cutoff },
        },
      });
    }
    const res = await feed({ since: new Date(h.clock.nowMs() - 89 * DAY_MS).toISOString() });
    expect(res.status).toBe(200);
    expect(res.body.data.changes.map((c: { key: string }) => c.key)).toEqual((await walk()).slice(1).map((c) => c.key));
  });

  it('a walk under way when retention removes a deletion record is refused on its next page, and a new walk is not', async () => {
    const gone = await create('Gone soon');
    await remove(gone.key);
    await create('Padding');
    const first = await feed({ limit: '1' });
    expect(first.status).toBe(200);
    expect(first.body.pagination.has_more).toBe(true);
    // A walk with since, too: the same page a moment later.
    const since = now();
    const withSince = await feed({ since, limit: '1' });
    expect(withSince.body.pagination.has_more).toBe(true);

    h.clock.advance(91 * DAY_MS);
    await sweep();

    for (const [cursor, extra] of [
      [first.body.pagination.next_cursor, {}],
      [withSince.body.pagination.next_cursor, { since }],
      // A cursor issued before the upgrade carries no generation: it began before any removal.
      [encodeCursor(1), {}],
    ] as const) {
      const next = await feed({ ...extra, cursor, limit: '1' });
      expect(next.status).toBe(410);
      expect(next.body.error.code).toBe('RESYNC_REQUIRED');
    }
    const again = await walk();
    expect(again.map((c) => c.key)).not.toContain(gone.key);
    expect(again.every((c) => c.action !== 'deleted')).toBe(true);
  });

  it('live_events rows go LIVE_EVENTS_RETENTION_HOURS after a sweep first saw them; newer ones stay', async () => {
    expect(h.ctx.config.retention.liveEventsHours).toBe(24);
    await create('Seen by the first sweep');
    await sweep();
    const seen = await liveEventIds();
    expect(seen.length).toBeGreaterThan(0);
    const lastSeen = await h.ctx.db
      .selectFrom('live_events')
      .select(['tx', 'id'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(lastSeen.id).toBe(Math.max(...seen));

    h.clock.advance(23 * 3_600_000);
    const newer = await create('Written within the retention');
    await sweep();
    expect(await liveEventIds()).toEqual(expect.arrayContaining(seen));

    h.clock.advance(2 * 3_600_000);
    await sweep();
    const left = await liveEventIds();
    expect(left.length).toBeGreaterThan(0);
    expect(left.some((id) => seen.includes(id))).toBe(false);
    expect(Math.min(...left)).toBeGreaterThan(Math.max(...seen));
    expect(newer.key).toBeDefined();

    // A tab resuming from a removed row is told so (and reloads); one resuming from a kept row resumes.
    const browser = await person(h, { org: actor.org, role: 'admin' });
    const kept = await h.ctx.db
      .selectFrom('live_events')
      .select(['tx', 'id'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const resume = (method: 'GET' | 'HEAD', position: string) =>
      h.request(method, '/api/console/live/', {
        headers: { host: HOST, cookie: browser.cookie, 'last-event-id': position },
      });
    expect((await resume('HEAD', `${kept.tx}-${kept.id}`)).status).toBe(200);
    expect((await resume('HEAD', `${lastSeen.tx}-${lastSeen.id}`)).status).toBe(400);
    const gone = await resume('GET', `${lastSeen.tx}-${lastSeen.id}`);
    expect(gone.status).toBe(400);
    expect(gone.body.error.code).toBe('VALIDATION_ERROR');
  });
});
