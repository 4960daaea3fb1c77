import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeUnfannedStatement } from '../../src/modules/webhooks/delivery/fan-out.repository.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';

/**
 * The worker's idle poll reads the index of events still to fan out, whatever the statistics.
 * Here they were gathered while every event was new, then every event was fanned
 * out, as when autovacuum has not run since a burst.
 */
describe("the worker's idle poll", () => {
  let h: TestHarness;
  const EVENTS = 20_000;

  beforeAll(async () => {
    h = await createHarness();
    await h.actor();
    const org = await h.ctx.db.selectFrom('organizations').select('id').executeTakeFirstOrThrow();
    await sql`
      with recursive n(i) as (select 1 union all select i + 1 from n where i < ${EVENTS})
      insert into event_outbox (event_id, type, organization_id, correlation_id, envelope, occurred_at, notified_at)
      select ${'evt_'} || i, 'task.updated', ${org.id}, ${'c'} || i, '{}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
      from n`.execute(h.ctx.db);
    await sql.raw(h.ctx.dialect === 'postgres' ? 'analyze event_outbox' : 'analyze').execute(h.ctx.db);
    await h.ctx.db.updateTable('event_outbox').set({ fanned_out_at: '2026-01-01T00:00:01.000Z' }).execute();
  }, 120_000);
  afterAll(() => h.close());

  it('reads the partial index of unfanned events, not the primary key or the table', async () => {
    const compiled = takeUnfannedStatement(h.ctx.db, h.ctx.dialect, '2026-01-01T00:00:02.000Z', 200).compile();
    const postgres = h.ctx.dialect === 'postgres';
    const plan = await h.ctx.db.executeQuery<Record<string, string>>({
      ...compiled,
      sql: `${postgres ? 'explain' : 'explain query plan'} ${compiled.sql}`,
    });
    const text = plan.rows.map((r) => r['QUERY PLAN'] ?? r.detail).join('\n');
    if (postgres) {
      expect(text).toContain('Index Scan using event_outbox_unfanned_idx');
      expect(text).not.toMatch(/event_outbox_pkey|Seq Scan on event_outbox/);
    } else {
      // SQLite has no dead index entries to walk: either index on fanned_out_at finds the NULLs in id order.
      expect(text).toMatch(/SEARCH event_outbox USING (COVERING )?INDEX event_outbox_(pending|unfanned)_idx/);
      expect(text).not.toMatch(/SCAN event_outbox/);
    }
    expect(await takeUnfannedStatement(h.ctx.db, h.ctx.dialect, '2026-01-01T00:00:02.000Z', 200).execute()).toEqual([]);
  });
});
