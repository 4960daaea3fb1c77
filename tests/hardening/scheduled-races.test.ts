import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoFromMs } from '../../src/clock.ts';
import type { Db } from '../../src/db/database.ts';
import { deliverDue } from '../../src/modules/webhooks/delivery/deliver-due.ts';
import { fanOut } from '../../src/modules/webhooks/delivery/fan-out.ts';
import type { Actor } from '../helpers/harness.ts';
import { blockingEdges as storedBlockingEdges } from '../helpers/factory.ts';
import { forgeInFlightClaim, storedResponse } from '../helpers/storage.ts';
import {
  attemptsOf,
  captureLogger,
  createWebhookHarness,
  deliveriesOf,
  disableEndpointsExcept,
  emitEvent,
  type Receiver,
  startReceiver,
  type WebhookHarness,
} from '../helpers/webhooks.ts';

/**
 * Races with controlled interleavings. Every database round trip of the app
 * ends in a scheduling point: a Kysely plugin hands each query's result to fast-check's
 * scheduler, which releases the waiting continuations in an order drawn from the run's seed.
 * Concurrent requests therefore interleave at every query boundary in orders plain
 * Promise.all would rarely produce, and a failure prints the order that caused it.
 *
 * The database work itself is real: on PostgreSQL a query may wait on a lock another request
 * holds (the scheduler then releases that request's continuations first), on SQLite the one
 * connection serialises transactions. Wall-clock IO decides which continuations are waiting
 * when the scheduler picks, so a seed replays the same choices, not always the same schedule.
 */
const SEED = 0x9_2026;

class SchedulingPoints implements KyselyPlugin {
  scheduler: fc.Scheduler | null = null;
  /** Scheduling points released while a property ran: how many interleaving decisions were made. */
  released = 0;
  private readonly kinds = new WeakMap<object, string>();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.kinds.set(args.queryId, args.node.kind.replace(/Node$/, ''));
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const scheduler = this.scheduler;
    if (!scheduler) return args.result;
    this.released++;
    return scheduler.schedule(Promise.resolve(args.result), this.kinds.get(args.queryId) ?? 'query');
  }
}

describe('races under fast-check scheduled interleavings', () => {
  let h: WebhookHarness;
  let admin: Actor;
  let receiver: Receiver;
  const points = new SchedulingPoints();
  let plain: Db;
  const explored: Record<string, { runs: number; points: number; outcomes: Record<string, number> }> = {};
  /** Tallies what a run ended in, so the report shows the interleavings reached different outcomes. */
  const outcome = (name: string, label: string) => {
    const tally = explored[name]!.outcomes;
    tally[label] = (tally[label] ?? 0) + 1;
  };

  beforeAll(async () => {
    h = await createWebhookHarness({ allowPrivate: true });
    plain = h.ctx.db;
    h.ctx.db = plain.withPlugin(points);
    admin = await h.actor();
    await h.project(admin, 'IDEM');
    await h.project(admin, 'LINK');
    receiver = await startReceiver();
  });
  afterAll(async () => {
    console.info(`scheduled races explored: ${JSON.stringify(explored)}`);
    await receiver.close();
    await h.close();
  });

  /**
   * Runs the participants concurrently with every query result behind the scheduler. Each
   * participant also waits for the scheduler before starting. A task is released only once
   * every live participant is parked at a scheduling point (or a few milliseconds passed, for
   * one waiting on a lock or on the network), so each choice is made among all of them rather
   * than handed to whichever request reached the scheduler first.
   */
  async function scheduled<T>(name: string, s: fc.Scheduler, participants: Array<() => Promise<T>>): Promise<T[]> {
    const before = points.released;
    points.scheduler = s;
    let live = participants.length;
    let done = false;
    const all = Promise.all(
      participants.map(async (run, i) => {
        await s.schedule(Promise.resolve(), `start ${i}`);
        try {
          return await run();
        } finally {
          live--;
        }
      }),
    ).finally(() => {
      done = true;
    });
    try {
      while (!done) {
        const settleBy = performance.now() + 5;
        while (!done && s.count() < live && performance.now() < settleBy) await new Promise(setImmediate);
        if (s.count() > 0) await s.waitNext(1);
        else if (!done) await new Promise(setImmediate);
      }
      return await all;
    } finally {
      points.scheduler = null;
      const tally = (explored[name] ??= { runs: 0, points: 0, outcomes: {} });
      tally.runs++;
      tally.points += points.released - before;
    }
  }

  const post = (url: string, body: unknown, headers?: Record<string, string>) =>
    h.request('POST', url, { token: admin.token, body, headers });

  describe('4.1: twins with one Idempotency-Key', () => {
    let round = 0;

    /** Exactly one twin did the work; every other got 409 CONFLICT (in progress) or a replay of that same answer. */
    async function expectOneWinner(
      name: string,
      results: Awaited<ReturnType<typeof post>>[],
      title: string,
    ): Promise<void> {
      outcome(
        name,
        results.map((r) => (r.status === 201 && r.headers['idempotent-replayed'] ? 'replay' : r.status)).join(','),
      );
      const fresh = results.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined);
      expect(fresh, JSON.stringify(results.map((r) => [r.status, r.text]))).toHaveLength(1);
      for (const r of results) {
        if (r === fresh[0]) continue;
        if (r.status === 201) {
          expect(r.headers['idempotent-replayed']).toBe('true');
          expect(r.body).toEqual(fresh[0]!.body);
        } else {
          expect(r.status, r.text).toBe(409);
          expect(r.body.error.code).toBe('CONFLICT');
          expect(r.body.error.message).toMatch(/is (still )?in progress; retry shortly\.$/);
        }
      }
      const rows = await plain.selectFrom('tasks').select('key').where('title', '=', title).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.key).toBe(fresh[0]!.body.data.key);
    }

    it('N concurrent twins: exactly one creates the task, the rest are 409 or replays, in every interleaving', async () => {
      await fc.assert(
        fc.asyncProperty(fc.scheduler(), fc.integer({ min: 2, max: 5 }), async (s, n) => {
          const key = `twin-${++round}`;
          const title = `Twin ${round}`;
          const results = await scheduled(
            'idempotency twins',
            s,
            Array.from(
              { length: n },
              () => () => post('/api/v1/projects/IDEM/tasks/', { title }, { 'idempotency-key': key }),
            ),
          );
          await expectOneWinner('idempotency twins', results, title);
          const { state, response_status } = await storedResponse(h, key, { db: plain });
          expect({ state, response_status }).toEqual({ state: 'complete', response_status: 201 });
        }),
        { seed: SEED, numRuns: 25 },
      );
    });

    it('twins racing to take over an abandoned claim (lease expired): exactly one takes it over and does the work', async () => {
      await fc.assert(
        fc.asyncProperty(fc.scheduler(), fc.integer({ min: 2, max: 4 }), async (s, n) => {
          const key = `abandoned-${++round}`;
          const title = `Abandoned ${round}`;
          // A claim whose request died mid-flight: its lease ended a second ago.
          await forgeInFlightClaim(
            h,
            {
              tokenId: admin.tokenId,
              key,
              requestHash: 'from-a-dead-request',
              leaseExpiresAt: isoFromMs(h.clock.nowMs() - 1000),
              createdAt: isoFromMs(h.clock.nowMs() - 60_000),
            },
            plain,
          );
          const results = await scheduled(
            'idempotency takeover',
            s,
            Array.from(
              { length: n },
              () => () => post('/api/v1/projects/IDEM/tasks/', { title }, { 'idempotency-key': key }),
            ),
          );
          await expectOneWinner('idempotency takeover', results, title);
        }),
        { seed: SEED, numRuns: 20 },
      );
    });
  });

  describe('DEPENDENCY_CYCLE: concurrent links that together close a loop', () => {
    let round = 0;

    async function tasks(count: number): Promise<string[]> {
      const keys: string[] = [];
      for (let i = 0; i < count; i++)
        keys.push((await post('/api/v1/projects/LINK/tasks/', { title: `Link race ${round}.${i}` })).body.data.key);
      return keys;
    }

    /** "from blocks to", asked on either end: as `blocks` on `from` or as `blocked_by` on `to`. */
    const block = (from: string, to: string, onBlocker: boolean) =>
      onBlocker
        ? post(`/api/v1/tasks/${from}/link/`, { task: to, type: 'blocks' })
        : post(`/api/v1/tasks/${to}/link/`, { task: from, type: 'blocked_by' });

    async function blockingEdges(keys: string[]): Promise<string[]> {
      const rows = await storedBlockingEdges(plain, keys);
      return rows.map((r) => `${r.from}>${r.to}`).sort();
    }

    it('A blocks B against B blocks A, asked from either end: exactly one wins, the other is 422 DEPENDENCY_CYCLE', async () => {
      await fc.assert(
        fc.asyncProperty(fc.scheduler(), fc.boolean(), fc.boolean(), async (s, firstOnBlocker, secondOnBlocker) => {
          round++;
          const [a, b] = (await tasks(2)) as [string, string];
          const results = await scheduled('links A<->B', s, [
            () => block(a, b, firstOnBlocker),
            () => block(b, a, secondOnBlocker),
          ]);
          outcome('links A<->B', results.map((r) => r.status).join(','));
          expect(results.map((r) => r.status).sort(), JSON.stringify(results.map((r) => r.text))).toEqual([201, 422]);
          const loser = results.find((r) => r.status === 422)!;
          expect(loser.body.error.code).toBe('DEPENDENCY_CYCLE');
          expect(loser.body.error.details.path).toHaveLength(3);
          const winner = results.indexOf(results.find((r) => r.status === 201)!);
          expect(await blockingEdges([a, b])).toEqual([winner === 0 ? `${a}>${b}` : `${b}>${a}`]);
        }),
        { seed: SEED, numRuns: 20 },
      );
    });

    it('a triangle A→B, B→C, C→A requested at once: exactly two links are made and one is 422 with the whole loop', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.scheduler(),
          fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
          async (s, onBlocker) => {
            round++;
            const [a, b, c] = (await tasks(3)) as [string, string, string];
            const edges: Array<[string, string]> = [
              [a, b],
              [b, c],
              [c, a],
            ];
            const results = await scheduled(
              'links triangle',
              s,
              edges.map(
                ([from, to], i) =>
                  () =>
                    block(from, to, onBlocker[i]!),
              ),
            );
            outcome('links triangle', results.map((r) => r.status).join(','));
            expect(results.map((r) => r.status).sort(), JSON.stringify(results.map((r) => r.text))).toEqual([
              201, 201, 422,
            ]);
            const loser = results.find((r) => r.status === 422)!;
            expect(loser.body.error.code).toBe('DEPENDENCY_CYCLE');
            expect(new Set(loser.body.error.details.path)).toEqual(new Set([a, b, c]));
            const made = edges.filter((_, i) => results[i]!.status === 201).map(([from, to]) => `${from}>${to}`);
            expect(await blockingEdges([a, b, c])).toEqual(made.sort());
          },
        ),
        { seed: SEED, numRuns: 15 },
      );
    });
  });

  describe('delivery worker: several workers claiming the same due deliveries', () => {
    const { log } = captureLogger();
    let round = 0;

    it('every due delivery is attempted by exactly one worker, once, in every interleaving of the claims', async () => {
      const project = await h.project(admin, 'WORK');
      await fc.assert(
        fc.asyncProperty(
          fc.scheduler(),
          fc.integer({ min: 2, max: 3 }),
          fc.integer({ min: 1, max: 6 }),
          fc.integer({ min: 1, max: 4 }),
          async (s, workers, endpoints, limit) => {
            round++;
            await disableEndpointsExcept(h, [], plain);
            for (let i = 0; i < endpoints; i++) {
              const res = await post('/api/v1/webhooks/endpoints/', {
                url: receiver.url(`/w${round}/${i}`),
                project: project.id,
                events: ['task.updated'],
              });
              expect(res.status, res.text).toBe(201);
            }
            await emitEvent(h, project.id);
            await fanOut(h.ctx);
            const due = await deliveriesOf(h, { status: 'pending' }, plain);
            expect(due).toHaveLength(endpoints);
            receiver.requests.length = 0;

            const worker = async () => {
              let attempted = 0;
              for (let claimed; (claimed = await deliverDue(h.ctx, log, limit)) > 0;) attempted += claimed;
              return attempted;
            };
            const attempted = await scheduled(
              'delivery workers',
              s,
              Array.from({ length: workers }, () => worker),
            );

            outcome('delivery workers', `attempted per worker ${attempted.join('/')}`);
            expect(attempted.reduce((x, y) => x + y, 0)).toBe(endpoints);
            const posted = receiver.requests
              .map((r) => Number(r.headers['x-service-delivery-id']))
              .sort((x, y) => x - y);
            expect(posted).toEqual(due.map((d) => d.id).sort((x, y) => x - y));
            const rows = await deliveriesOf(h, { ids: due.map((d) => d.id) }, plain);
            expect(
              rows.every((r) => r.status === 'delivered' && r.attempts === 1),
              JSON.stringify(rows),
            ).toBe(true);
            const attempts = await attemptsOf(h, { deliveries: due.map((d) => d.id) }, plain);
            expect(attempts).toHaveLength(endpoints);
            expect(attempts.every((a) => a.error === null && a.response_status === 200)).toBe(true);
          },
        ),
        { seed: SEED, numRuns: 15 },
      );
    });
  });
});
