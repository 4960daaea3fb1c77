/**
 * Fan-out: turns outbox events into deliveries, one per enabled endpoint that subscribes to
 * the event's type and whose scope covers the event's project. An endpoint's scope is its
 * project, or every project its governing account (the account that last set its URL or
 * events) can see; either way that account must see the project when the event is fanned out,
 * so nobody receives at a URL they chose an event of a project they cannot see (nor of a link
 * whose other end is in a project they cannot see: `related_project_id`), nor someone else's
 * notification (`recipient_id`: only endpoints that account governs receive it). An endpoint
 * with a filter receives, of those, the events its filter lets through (fan-out-filters.ts).
 *
 * Claiming and marking are one UPDATE ... RETURNING at the start of the transaction, so the
 * rows are ours (PostgreSQL: SKIP LOCKED lets other workers take other rows; SQLite: the write
 * lock is taken first, so a second process waits instead of reading stale rows). A crash
 * before commit rolls the marks back and the events are fanned out again.
 */
import type { AppContext } from '../../../context.ts';
import { inTransaction, type Tx } from '../../../db/unit-of-work.ts';
import { insertDeliveries, type NewDelivery } from '../webhooks.repository.ts';
import { eventsPassing, type FannedEvent, type FilteredEndpoint, statesOfEvents } from './fan-out-filters.ts';
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

    const projectIds = [
      ...new Set(events.flatMap((e) => [e.project_id, e.related_project_id].filter((id) => id !== null))),
    ];
    const governorIds = [...new Set(endpoints.map((e) => e.governed_by))];
    const sees = new Set(
      projectIds.length === 0
        ? []
        : (await repo.membershipsAmong(tx.db, governorIds, projectIds)).map((m) => `${m.user_id}:${m.project_id}`),
    );

    const covering = new Map(endpoints.map((endpoint) => [endpoint.id, [] as typeof events]));
    for (const event of events) {
      for (const endpoint of endpoints) {
        if (endpoint.organization_id !== event.organization_id || !endpoint.events.has(event.type)) continue;
        if (event.recipient_id !== null && endpoint.governed_by !== event.recipient_id) continue;
        const covered =
          event.project_id === null
            ? endpoint.project_id === null
            : (endpoint.project_id === null || endpoint.project_id === event.project_id) &&
              sees.has(`${endpoint.governed_by}:${event.project_id}`) &&
              (event.related_project_id === null || sees.has(`${endpoint.governed_by}:${event.related_project_id}`));
        if (covered) covering.get(endpoint.id)!.push(event);
      }
    }
    const passing = await filterEvents(tx, endpoints, covering);

    const deliveries: NewDelivery[] = [];
    for (const event of events) {
      for (const endpoint of endpoints) {
        if (!passing.get(endpoint.id)!.has(event.id)) continue;
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

/** The covered events each endpoint receives: all of them, or those its filter lets through (fan-out-filters.ts). */
async function filterEvents(
  tx: Tx,
  endpoints: Array<Omit<FilteredEndpoint, 'filter'> & { id: number; filter: string | null }>,
  covering: Map<number, FannedEvent[]>,
): Promise<Map<number, Set<number>>> {
  const passing = new Map(endpoints.map((e) => [e.id, new Set(covering.get(e.id)!.map((event) => event.id))]));
  const filtered = endpoints.flatMap(({ filter, ...endpoint }) =>
    filter !== null && covering.get(endpoint.id)!.length > 0 ? [{ ...endpoint, filter }] : [],
  );
  if (filtered.length === 0) return passing;
  const states = await statesOfEvents(tx.db, [
    ...new Map(filtered.flatMap((e) => covering.get(e.id)!).map((event) => [event.id, event])).values(),
  ]);
  const projectsOf = new Map<number, Array<{ id: number; key: string }>>();
  for (const row of await repo.projectsOfAccounts(tx.db, [...new Set(filtered.map((e) => e.governed_by))]))
    projectsOf.set(row.user_id, [...(projectsOf.get(row.user_id) ?? []), { id: row.id, key: row.key }]);
  for (const endpoint of filtered) {
    const projects = projectsOf.get(endpoint.governed_by) ?? [];
    passing.set(endpoint.id, await eventsPassing(tx, tx.db, endpoint, projects, covering.get(endpoint.id)!, states));
  }
  return passing;
}
