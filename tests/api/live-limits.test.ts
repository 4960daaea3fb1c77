import type { AddressInfo } from 'node:net';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTask } from '../helpers/factory.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { changeOf, isChange, type LiveClient, openLive } from '../helpers/live.ts';
import { type Browser, person } from '../helpers/people.ts';

/** Counts the statements the app sends, by what they read. */
class StatementCounter implements KyselyPlugin {
  readonly counts = { liveEventReads: 0, sessionChecks: 0 };
  transformQuery(args: PluginTransformQueryArgs) {
    const text = JSON.stringify(args.node);
    if (text.includes('"live_events"') && text.includes('"task_key"')) this.counts.liveEventReads++;
    if (text.includes('"sessions"') && text.includes('"user_active"') && !text.includes('"token_hash"'))
      this.counts.sessionChecks++;
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs) {
    return Promise.resolve(args.result);
  }
  reset() {
    this.counts.liveEventReads = this.counts.sessionChecks = 0;
  }
}

async function listen(h: TestHarness): Promise<string> {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
}

const cookie = (who: { cookie: string }) => ({ cookie: who.cookie });

async function stream(base: string, who: { cookie: string }, lastEventId?: string): Promise<LiveClient> {
  const client = await openLive(base, {
    headers: { ...cookie(who), ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
  });
  expect(client.status, client.body).toBe(200);
  await client.waitFor((e) => e.event === 'ready');
  return client;
}

async function refusal(base: string, headers: Record<string, string>) {
  const client = await openLive(base, { headers });
  await client.ended;
  return { status: client.status, body: client.body ? JSON.parse(client.body) : undefined };
}

/**
 * Live streams are capped per person and per organization (not per session), a write costs
 * the same few reads however many streams are open, HEAD holds no stream, and a Last-Event-ID
 * the service could not have sent is a 400.
 */
describe('live streams: caps, cost and resume ids', () => {
  let h: TestHarness;
  let base: string;
  let bot: Actor;
  let ann: Browser & { org: string };
  const counter = new StatementCounter();

  beforeAll(async () => {
    h = await createHarness({
      config: { live: { heartbeatMs: 60_000, pollMs: 250, maxStreamsPerPerson: 5, maxStreamsPerOrganization: 12 } },
      beforeReady: (_app, ctx) => {
        ctx.db = ctx.db.withPlugin(counter);
      },
    });
    base = await listen(h);
    ann = await person(h, { role: 'member' });
    bot = await h.actor({ org: ann.org, role: 'admin' });
    await h.project(bot, 'LIM');
    await h.addMember('LIM', ann.userId, 'member');
  });
  afterAll(() => h.close());

  it('a write costs the same few reads for 12 open streams as for one', async () => {
    const watchers = [ann];
    for (let i = 0; i < 2; i++) {
      const watcher = await person(h, { org: ann.org });
      await h.addMember('LIM', watcher.userId, 'viewer');
      watchers.push(watcher);
    }
    const single = await stream(base, ann);
    counter.reset();
    const first = await createTask(h, bot, 'LIM');
    await single.waitFor((e) => isChange(e) && changeOf(e).key === first.key);
    const withOne = { ...counter.counts };

    // Five streams of ann (the cap per person), four and three of the others: the organization's cap of 12.
    const streams = [single];
    for (const [watcher, count] of [
      [ann, 4],
      [watchers[1]!, 4],
      [watchers[2]!, 3],
    ] as const)
      for (let i = 0; i < count; i++) streams.push(await stream(base, watcher));
    expect(streams).toHaveLength(12);
    counter.reset();
    const second = await createTask(h, bot, 'LIM');
    await Promise.all(streams.map((s) => s.waitFor((e) => isChange(e) && changeOf(e).key === second.key)));
    const withTwelve = { ...counter.counts };

    // One read per wake-up, shared by the streams (a wake-up or two per write: the write's own, the poll's).
    expect(withOne.liveEventReads).toBeGreaterThanOrEqual(1);
    expect(withTwelve.liveEventReads).toBeLessThanOrEqual(3);
    expect(withTwelve.sessionChecks).toBeLessThanOrEqual(3);
    for (const s of streams) s.close();
    await Promise.all(streams.map((s) => s.ended));
  });

  it('caps streams per organization as well as per person', async () => {
    const people = [ann, await person(h, { org: ann.org }), await person(h, { org: ann.org })];
    const open: LiveClient[] = [];
    for (const who of people) for (let i = 0; i < 4; i++) open.push(await stream(base, who));
    const full = await refusal(base, cookie(await person(h, { org: ann.org })));
    expect(full.status).toBe(429);
    expect(full.body.error.message).toMatch(/for one organization/);
    // Another organization is not affected.
    const elsewhere = await stream(base, await person(h));
    elsewhere.close();
    for (const s of open) s.close();
    await Promise.all(open.map((s) => s.ended));
  });

  it('HEAD answers at once and holds no stream', async () => {
    for (let i = 0; i < 8; i++) {
      const res = await fetch(`${base}/api/console/live/`, { method: 'HEAD', headers: cookie(ann) });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    }
    const open: LiveClient[] = [];
    for (let i = 0; i < 5; i++) open.push(await stream(base, ann));
    for (const s of open) s.close();
    await Promise.all(open.map((s) => s.ended));
  });

  it('a Last-Event-ID the stream could not have sent is a 400, 0-0 included once changes exist', async () => {
    const watching = await stream(base, ann);
    const task = await createTask(h, bot, 'LIM');
    const event = await watching.waitFor((e) => isChange(e) && changeOf(e).key === task.key);
    watching.close();
    await watching.ended;
    for (const id of ['0-0', '0-999999999', '999-1', 'yesterday']) {
      const refused = await refusal(base, { ...cookie(ann), 'last-event-id': id });
      expect(refused.status, id).toBe(400);
      expect(refused.body.error.details.fields).toHaveProperty('last-event-id');
    }
    const resumed = await stream(base, ann, event.id);
    resumed.close();
  });
});

describe('live streams: the start of an empty table', () => {
  it('0-0, the id of `ready` while nothing has changed yet, resumes from the start', async () => {
    const h = await createHarness();
    try {
      const base = await listen(h);
      const ann = await person(h);
      const first = await stream(base, ann);
      expect(first.events[0]!.id).toBe('0-0');
      first.close();
      await first.ended;
      const again = await stream(base, ann, '0-0');
      again.close();
    } finally {
      await h.close();
    }
  });
});
