import type { Executor } from '../db/database.ts';

/** Deletes delivered and failed deliveries created before `cutoff` (their attempts go with them); returns how many. */
export async function deleteFinishedDeliveriesBefore(db: Executor, cutoff: string): Promise<number> {
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('status', 'in', ['delivered', 'failed'])
    .where('created_at', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes outbox events fanned out before `cutoff` that no delivery references any more. */
export async function deleteUnreferencedEventsBefore(db: Executor, cutoff: string): Promise<void> {
  await db
    .deleteFrom('event_outbox')
    .where('fanned_out_at', '<', cutoff)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.outbox_id', '=', 'event_outbox.id'),
        ),
      ),
    )
    .execute();
}

/**
 * Deletes the pending deliveries of endpoints disabled (and left unchanged) since before
 * `cutoff`; returns how many.
 */
export async function deletePendingDeliveriesOfEndpointsDisabledBefore(db: Executor, cutoff: string): Promise<number> {
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('status', '=', 'pending')
    .where('endpoint_id', 'in', (eb) =>
      eb.selectFrom('webhook_endpoints').select('id').where('enabled', '=', 0).where('updated_at', '<', cutoff),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes up to `limit` change records from before `cutoff` that a later record of the same
 * task supersedes; returns how many. A reader walking the feed meets the later record anyway.
 */
export async function deleteSupersededChangesBefore(db: Executor, cutoff: string, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('task_changes')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('task_changes as c')
        .select('c.id')
        .where('c.changed_at', '<', cutoff)
        .where((inner) =>
          inner.exists(
            inner
              .selectFrom('task_changes as later')
              .select('later.id')
              .whereRef('later.task_id', '=', 'c.task_id')
              .whereRef('later.id', '>', 'c.id'),
          ),
        )
        .orderBy('c.id')
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes up to `limit` deletion records from before `cutoff`; returns how many. */
export async function deleteDeletionRecordsBefore(db: Executor, cutoff: string, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('task_changes')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('task_changes')
        .select('id')
        .where('action', '=', 'deleted')
        .where('changed_at', '<', cutoff)
        .orderBy('id')
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Whether any deletion record from before `cutoff` is left. */
export async function hasDeletionRecordsBefore(db: Executor, cutoff: string): Promise<boolean> {
  const row = await db
    .selectFrom('task_changes')
    .select('id')
    .where('action', '=', 'deleted')
    .where('changed_at', '<', cutoff)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records that `name` lost records from before `purgedBefore`: one more generation. */
export async function advanceHorizon(db: Executor, name: string, purgedBefore: string): Promise<void> {
  await db
    .insertInto('retention_horizons')
    .values({ name, purged_before: purgedBefore, generation: 1 })
    .onConflict((oc) =>
      oc.column('name').doUpdateSet((eb) => ({
        purged_before: eb.ref('excluded.purged_before'),
        generation: eb(eb.ref('retention_horizons.generation'), '+', 1),
      })),
    )
    .execute();
}

/** Notes the largest live_events id now (nothing while the table is empty). */
export async function markLiveEvents(db: Executor, now: string): Promise<void> {
  const row = await db
    .selectFrom('live_events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  if (!row?.id) return;
  await db
    .insertInto('live_event_marks')
    .values({ last_id: Number(row.id), marked_at: now })
    .onConflict((oc) => oc.column('last_id').doNothing())
    .execute();
}

/** The largest live_events id noted before `cutoff`: rows up to it are older than the cutoff. */
export async function liveEventsMarkedBefore(db: Executor, cutoff: string): Promise<number | null> {
  const row = await db
    .selectFrom('live_event_marks')
    .select((eb) => eb.fn.max('last_id').as('last_id'))
    .where('marked_at', '<', cutoff)
    .executeTakeFirst();
  return row?.last_id == null ? null : Number(row.last_id);
}

/** Deletes up to `limit` live_events rows with ids up to `lastId`; returns how many. */
export async function deleteLiveEventsThrough(db: Executor, lastId: number, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('live_events')
    .where('id', 'in', (eb) =>
      eb.selectFrom('live_events').select('id').where('id', '<=', lastId).orderBy('id').limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Drops marks up to `lastId`, once the rows they stood for are gone. */
export async function deleteLiveEventMarksThrough(db: Executor, lastId: number): Promise<void> {
  await db.deleteFrom('live_event_marks').where('last_id', '<=', lastId).execute();
}
