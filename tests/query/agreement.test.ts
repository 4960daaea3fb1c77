import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tasksMatching } from '../../src/modules/query/query.repository.ts';
import {
  bindFor,
  checkQuery,
  predicateFor,
  type QueryScope,
  taskFacts,
} from '../../src/modules/query/query.service.ts';
import { presentTaskRow } from '../../src/modules/tasks/task.presenter.ts';
import { taskRowsInOrder } from '../../src/modules/tasks/task-list.repository.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { queries, taskSpecs, TIME_ZONES } from './generators.ts';
import { replaceTasks, seedWorld, type World } from './world.ts';

/**
 * One meaning, three ways: for generated tasks and generated queries, the tasks the query's SQL
 * selects on this database are exactly those its in-memory predicate accepts.
 */
describe('the query language: SQL and the predicate agree', () => {
  let h: TestHarness;
  let world: World;
  beforeAll(async () => {
    h = await createHarness();
    world = await seedWorld(h);
  });
  afterAll(() => h.close());

  it('on generated tasks and queries, in every time zone', { timeout: 300_000 }, async () => {
    const visible = [world.projects.QA, world.projects.QB];
    await fc.assert(
      fc.asyncProperty(
        taskSpecs(world),
        fc.array(fc.tuple(queries(world), fc.constantFrom(...TIME_ZONES)), { minLength: 25, maxLength: 25 }),
        fc.integer({ min: -36, max: 36 }),
        async (specs, cases, hourShift) => {
          h.clock.set(new Date(Date.parse('2026-11-21T09:00:00Z') + hourShift * 3_600_000));
          const ids = await replaceTasks(h, world, specs);
          const rows = await taskRowsInOrder(h.ctx, ids);
          const visibleRows = rows.filter((row) => visible.some((p) => p.id === row.project_id));
          for (const [text, timeZone] of cases) {
            const scope: QueryScope = {
              accountId: world.caller.accountId,
              organizationId: (
                await h.ctx.db
                  .selectFrom('projects')
                  .select('organization_id')
                  .where('id', '=', world.projects.QA.id)
                  .executeTakeFirstOrThrow()
              ).organization_id,
              projects: visible,
              timeZone,
            };
            const bound = await bindFor(h.ctx, h.ctx.db, checkQuery(text), scope);
            const bySql = (
              await tasksMatching(
                h.ctx.db,
                visible.map((p) => p.id),
                bound,
                h.ctx.dialect,
              )
                .select('t.id')
                .execute()
            )
              .map((r) => r.id)
              .sort((a, b) => a - b);
            const predicate = await predicateFor(h.ctx, h.ctx.db, bound);
            const facts = await taskFacts(
              h.ctx,
              h.ctx.db,
              visibleRows.map((row) => ({ id: row.id, task: presentTaskRow(row, row) })),
              visible.map((p) => p.id),
              predicate,
            );
            const byPredicate = visibleRows
              .filter((_, i) => predicate(facts[i]!))
              .map((row) => row.id)
              .sort((a, b) => a - b);
            expect(byPredicate, `${text} (tz ${timeZone})`).toEqual(bySql);
          }
        },
      ),
      { numRuns: Number(process.env.QUERY_AGREEMENT_RUNS ?? 12) },
    );
  });
});
