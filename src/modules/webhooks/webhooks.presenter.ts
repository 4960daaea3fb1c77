import type { DeliveryRow, EndpointRow } from './webhooks.repository.ts';

export function presentEndpoint(row: EndpointRow) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as string[],
    filter: row.filter,
    format: row.format,
    project: row.project_id,
    enabled: row.enabled === 1,
    disabled_reason: row.disabled_reason,
    created_at: row.created_at,
    created_by: row.created_by,
  };
}

export function presentDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    endpoint: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.next_attempt_at,
    response_status: row.response_status,
    error: row.error,
    created_at: row.created_at,
    delivered_at: row.delivered_at,
    test: row.is_test === 1,
    replay_of: row.replay_of,
  };
}

export function presentAttempt(row: {
  number: number;
  started_at: string;
  duration_ms: number | null;
  response_status: number | null;
  error: string | null;
  response_body: string | null;
}) {
  return {
    number: row.number,
    started_at: row.started_at,
    duration_ms: row.duration_ms,
    response_status: row.response_status,
    error: row.error,
    response_body: row.response_body,
  };
}
