import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { paginate } from '../../db/paginate.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { DeliveryStatus, WebhookDeliveriesTable, WebhookEndpointsTable } from '../../db/schema.ts';
import type { Principal } from '../../identity/principal.ts';
import { visibleDeliveries, visibleEndpoints } from '../../policy/visibility.repository.ts';

export const ENDPOINT_COLUMNS = [
  'e.id',
  'e.url',
  'e.description',
  'e.events',
  'e.filter',
  'e.format',
  'e.project_id',
  'e.enabled',
  'e.disabled_reason',
  'e.created_at',
  'e.created_by',
  'e.governed_by',
] as const;

export function findVisibleEndpoint(db: Executor, principal: Principal, id: number) {
  return visibleEndpoints(db, principal).select(ENDPOINT_COLUMNS).where('e.id', '=', id).executeTakeFirst();
}

export type EndpointRow = NonNullable<Awaited<ReturnType<typeof findVisibleEndpoint>>>;

/** The endpoints the caller sees, for a page. */
/** One page of the endpoints the caller sees. */
export function endpointsPage(db: Executor, principal: Principal, page: PageRequest) {
  return paginate(visibleEndpoints(db, principal).select(ENDPOINT_COLUMNS), page, {
    idColumn: 'e.id',
    orderable: { id: 'e.id', created_at: 'e.created_at', url: 'e.url' },
    defaultOrdering: 'id',
  });
}

export async function insertEndpoint(
  db: Executor,
  values: Omit<Insertable<WebhookEndpointsTable>, 'id'>,
): Promise<number> {
  const row = await db.insertInto('webhook_endpoints').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateEndpoint(
  db: Executor,
  id: number,
  changes: Updateable<WebhookEndpointsTable>,
): Promise<void> {
  await db.updateTable('webhook_endpoints').set(changes).where('id', '=', id).execute();
}

/** Deletes the endpoint; its deliveries and their attempts go with it (foreign keys cascade). */
export async function deleteEndpoint(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}

/** The encrypted signing secret of an endpoint the caller sees. */
export function findVisibleEndpointSecret(db: Executor, principal: Principal, id: number) {
  return db
    .selectFrom('webhook_endpoints')
    .select('secret_ciphertext')
    .where('id', 'in', visibleEndpoints(db, principal).select('e.id'))
    .where('id', '=', id)
    .executeTakeFirst();
}

export const DELIVERY_COLUMNS = [
  'd.id',
  'd.endpoint_id',
  'd.event_id',
  'd.event_type',
  'd.status',
  'd.attempts',
  'd.next_attempt_at',
  'd.response_status',
  'd.error',
  'd.created_at',
  'd.delivered_at',
  'd.is_test',
  'd.replay_of',
] as const;

/** The delivery with the project of its event (null for events of no project). */
export function findVisibleDelivery(db: Executor, principal: Principal, id: number) {
  return visibleDeliveries(db, principal)
    .innerJoin('event_outbox as ev', 'ev.id', 'd.outbox_id')
    .select([...DELIVERY_COLUMNS, 'd.outbox_id', 'ev.project_id as event_project_id'])
    .where('d.id', '=', id)
    .executeTakeFirst();
}

export interface DeliveryFilters {
  endpoint?: number;
  status?: DeliveryStatus;
  event_type?: string;
}

/** The deliveries the caller sees, for a page, optionally of one endpoint, in one status or of one event type. */
function deliveriesVisibleTo(db: Executor, principal: Principal, filters: DeliveryFilters) {
  return visibleDeliveries(db, principal)
    .select(DELIVERY_COLUMNS)
    .$if(filters.endpoint !== undefined, (qb) => qb.where('d.endpoint_id', '=', filters.endpoint!))
    .$if(filters.status !== undefined, (qb) => qb.where('d.status', '=', filters.status!))
    .$if(filters.event_type !== undefined, (qb) => qb.where('d.event_type', '=', filters.event_type!));
}

/** Every attempt of a delivery, oldest first. */
export function attemptsOfDelivery(db: Executor, deliveryId: number) {
  return db
    .selectFrom('webhook_attempts')
    .select(['number', 'started_at', 'duration_ms', 'response_status', 'error', 'response_body'])
    .where('delivery_id', '=', deliveryId)
    .orderBy('id')
    .execute();
}

/** Marks an event fanned out at once (a test event has exactly one delivery): its outbox id. */
export async function markEventFannedOut(db: Executor, eventId: string, now: string): Promise<number> {
  const row = await db
    .updateTable('event_outbox')
    .set({ fanned_out_at: now })
    .where('event_id', '=', eventId)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export type DeliveryRow = Omit<
  NonNullable<Awaited<ReturnType<typeof findVisibleDelivery>>>,
  'outbox_id' | 'event_project_id'
>;

export type NewDelivery = Pick<
  WebhookDeliveriesTable,
  'endpoint_id' | 'organization_id' | 'outbox_id' | 'event_id' | 'event_type' | 'is_test' | 'replay_of'
> & {
  now: string;
};

/** The row of a new pending delivery, due now. */
function pendingDelivery({ now, ...rest }: NewDelivery) {
  return {
    ...rest,
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: now,
    locked_until: null,
    lease_token: null,
    response_status: null,
    error: null,
    created_at: now,
    delivered_at: null,
  };
}

export async function insertDelivery(db: Executor, delivery: NewDelivery): Promise<number> {
  const row = await db
    .insertInto('webhook_deliveries')
    .values(pendingDelivery(delivery))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertDeliveries(db: Executor, deliveries: NewDelivery[]): Promise<void> {
  // Bounded batches keep each statement under the drivers' parameter limits.
  for (let i = 0; i < deliveries.length; i += 500) {
    await db
      .insertInto('webhook_deliveries')
      .values(deliveries.slice(i, i + 500).map(pendingDelivery))
      .execute();
  }
}

const PAGING = {
  idColumn: 'd.id',
  orderable: {
    id: 'd.id',
    created_at: 'd.created_at',
    next_attempt_at: 'd.next_attempt_at',
    delivered_at: 'd.delivered_at',
  },
  defaultOrdering: '-id',
} as const;

/** The deliveries the caller sees, one page in the orderings a list offers. */
export function deliveriesPage(db: Executor, principal: Principal, filters: DeliveryFilters, page: PageRequest) {
  return paginate(deliveriesVisibleTo(db, principal, filters), page, PAGING);
}
