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
