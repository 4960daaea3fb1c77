/**
 * Fan-out: turns outbox events into deliveries, one per enabled endpoint that subscribes to
 * the event's type and whose scope covers the event's project. An endpoint's scope is its
 * project, or every project its governing account (the account that last set its URL or
 * events) can see; either way that account must see the project when the event is fanned out,
 * so nobody receives at a URL they chose an event of a project they cannot see.
 *
 * Claiming and marking are one UPDATE ... RETURNING at the start of the transaction, so the
 * rows are ours (PostgreSQL: SKIP LOCKED lets other workers take other rows; SQLite: the write
 * lock is taken first, so a second process waits instead of reading stale rows). A crash
 * before commit rolls the marks back and the events are fanned out again.
 */
import type { AppContext } from '../context.ts';
import { inTransaction } from '../db/unit-of-work.ts';
import { insertDeliveries, type NewDelivery } from '../modules/webhooks/webhooks.repository.ts';
import * as repo from './fan-out.repository.ts';

export async function fanOut(ctx: AppContext, limit = 200): Promise<number> {
  return inTransaction(ctx, async (tx) => {
    const now = tx.clock.nowIso();
    const events = await repo.takeUnfannedEvents(tx.db, tx.dialect, now, limit);
    if (events.length === 0) return 0;
    events.sort((a, b) => a.id - b.id);

    const endpoints = (await repo.enabledEndpointsOf(tx.db, [...new Set(events.map((e) => e.organization_id))])).map(
      (e) => ({
        ...e,
        events: new Set(JSON.parse(e.events) as string[]),
      }),
    );
    if (endpoints.length === 0) return events.length;

    const projectIds = [...new Set(events.flatMap((e) => (e.project_id === null ? [] : [e.project_id])))];
    const governorIds = [...new Set(endpoints.map((e) => e.governed_by))];
    const sees = new Set(
      projectIds.length === 0
        ? []
        : (await repo.membershipsAmong(tx.db, governorIds, projectIds)).map((m) => `${m.user_id}:${m.project_id}`),
    );

    const deliveries: NewDelivery[] = [];
    for (const event of events) {
      for (const endpoint of endpoints) {
        if (endpoint.organization_id !== event.organization_id || !endpoint.events.has(event.type)) continue;
        const covered =
          event.project_id === null
            ? endpoint.project_id === null
            : (endpoint.project_id === null || endpoint.project_id === event.project_id) &&
              sees.has(`${endpoint.governed_by}:${event.project_id}`);
        if (!covered) continue;
        deliveries.push({
          endpoint_id: endpoint.id,
          organization_id: event.organization_id,
          outbox_id: event.id,
          event_id: event.event_id,
          event_type: event.type,
          is_test: 0,
          replay_of: null,
          now,
        });
      }
    }
    await insertDeliveries(tx.db, deliveries);
    return events.length;
  });
}
