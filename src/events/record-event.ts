import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/database.ts';
import type { Principal } from '../identity/principal.ts';
import { API_VERSION, type EventType } from './catalog.ts';
import { insertOutboxEvent, type OutboxRow } from './outbox.repository.ts';

/**
 * What caused an event: the web app, the API, an agent through MCP, the scheduler, or the
 * operator's CLI (published in the envelope's schema).
 */
export const EVENT_SOURCES = ['app', 'api', 'agent', 'scheduler', 'operator'] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];

export interface EventActor {
  id: number;
  email: string;
  name: string;
}

/** Who and what caused a change: shared by every event one action produces. */
export interface ActionOrigin {
  organization: { id: number; slug: string; name: string };
  actor: EventActor;
  source: EventSource;
  correlationId: string;
}

export function originFromPrincipal(
  principal: Principal,
  correlationId: string,
  source: EventSource = principal.source ?? 'api',
): ActionOrigin {
  return {
    organization: { id: principal.organizationId, slug: principal.organizationSlug, name: principal.organizationName },
    actor: { id: principal.userId, email: principal.userEmail ?? '', name: principal.userName },
    source,
    correlationId,
  };
}

/** The actor of scheduled events: no user caused them (id 0 is never a user id). */
export const SCHEDULER_ACTOR = { id: 0, email: '', name: 'Scheduler' } as const;

/** The origin of what the worker does by itself (scheduled events, notices of its own). */
export function schedulerOrigin(organization: ActionOrigin['organization']): ActionOrigin {
  return {
    organization,
    actor: { ...SCHEDULER_ACTOR },
    source: 'scheduler',
    correlationId: `sched_${randomUUID().replaceAll('-', '')}`,
  };
}

/** The origin of what the operator does with the CLI: no account acted (id 0 is never a user id). */
export function operatorOrigin(organization: ActionOrigin['organization']): ActionOrigin {
  return {
    organization,
    actor: { id: 0, email: '', name: 'Operator' },
    source: 'operator',
    correlationId: `cli_${randomUUID().replaceAll('-', '')}`,
  };
}

export function newEventId(): string {
  return `evt_${randomUUID().replaceAll('-', '')}`;
}

export interface EventToRecord {
  type: EventType;
  origin: ActionOrigin;
  projectId: number | null;
  /** A second project the event discloses (the other end of a link): only those who see both receive it. */
  relatedProjectId?: number | null;
  /** The one account the event is for (a notification's): nobody else receives it. */
  recipientId?: number | null;
  occurredAt: string;
  data: Record<string, unknown>;
}

/**
 * The outbox row of one event. The envelope (docs/api/webhooks.md, "Receiving webhooks") is serialized here,
 * once; delivery signs and sends these exact bytes, replays included.
 */
export function outboxRowOf(event: EventToRecord): OutboxRow {
  const id = newEventId();
  const envelope = {
    id,
    type: event.type,
    api_version: API_VERSION,
    occurred_at: event.occurredAt,
    source: event.origin.source,
    correlation_id: event.origin.correlationId,
    organization: event.origin.organization,
    actor: event.origin.actor,
    data: event.data,
  };
  return {
    event_id: id,
    type: event.type,
    organization_id: event.origin.organization.id,
    project_id: event.projectId,
    related_project_id: event.relatedProjectId ?? null,
    recipient_id: event.recipientId ?? null,
    actor_id: event.origin.actor.id,
    correlation_id: event.origin.correlationId,
    envelope: JSON.stringify(envelope),
    occurred_at: event.occurredAt,
    fanned_out_at: null,
  };
}

/**
 * Writes one event to the outbox and returns its id. Call it inside the transaction of the
 * change it reports, so the event exists if and only if the change committed.
 */
export async function recordEvent(trx: Executor, event: EventToRecord): Promise<string> {
  const row = outboxRowOf(event);
  await insertOutboxEvent(trx, row);
  return row.event_id;
}
