/**
 * The OpenAPI document's `webhooks` section: one entry per type of the event catalog, its body
 * the envelope with that type's `data`, as a named component (`TaskStatusChangedEvent`) so that
 * generated clients get one type per event and a union discriminated on `type`.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { API_VERSION, EVENT_CATALOG } from '../../events/catalog.ts';
import { EVENT_SOURCES } from '../../events/record-event.ts';

/** `task.status_changed` → `TaskStatusChangedEvent`. */
export const eventSchemaName = (type: string): string =>
  `${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Event`;

function envelope(type: string, description: string, data: TSchema): TSchema {
  return Type.Object(
    {
      id: Type.String({ description: 'Unique per event; retries and replays repeat it: deduplicate on it.' }),
      type: Type.String({ enum: [type] }),
      api_version: Type.String({ enum: [API_VERSION] }),
      occurred_at: Type.String({ format: 'date-time' }),
      source: Type.String({
        enum: [...EVENT_SOURCES],
        description:
          "What caused it: the web app, the API, an agent through the MCP server (`agent`, the actor is the token's account), the scheduler (actor id 0), or the operator's CLI (`operator`, actor id 0).",
      }),
      correlation_id: Type.String({ description: 'Shared by every event one request or run produced.' }),
      organization: Type.Object({ id: Type.Integer(), slug: Type.String(), name: Type.String() }),
      actor: Type.Object({ id: Type.Integer(), email: Type.String(), name: Type.String() }),
      data,
    },
    { title: eventSchemaName(type), description },
  );
}

/** Envelope schemas by component name. */
export const EVENT_SCHEMAS: Record<string, TSchema> = Object.fromEntries(
  EVENT_CATALOG.map((e) => [eventSchemaName(e.type), envelope(e.type, e.description, e.data)]),
);

const header = (name: string, description: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
});

/** X-Service-Signature is the `webhookSignature` security scheme (src/http/openapi.ts). */
const DELIVERY_HEADERS = [
  header('X-Service-Timestamp', 'Unix seconds, fresh on every attempt; refuse it more than 300 s from your clock.'),
  header('X-Service-Event-Id', 'The envelope `id`.'),
  header('X-Service-Delivery-Id', 'The delivery, as listed by GET /api/v1/webhooks/deliveries/.'),
];

/** The document's `webhooks`: what the service POSTs to subscribed endpoints, per event type. */
export const WEBHOOKS: Record<string, unknown> = Object.fromEntries(
  EVENT_CATALOG.map((e) => [
    e.type,
    {
      post: {
        operationId: `on${eventSchemaName(e.type)}`,
        summary: e.type,
        description: e.subscribable
          ? `${e.description} Sent, signed, to every enabled endpoint subscribed to \`${e.type}\` that may see the event's project.`
          : `${e.description} Sent, signed, by POST /api/v1/webhooks/endpoints/{id}/test/.`,
        tags: ['Webhooks'],
        security: [{ webhookSignature: [] }],
        parameters: DELIVERY_HEADERS,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${eventSchemaName(e.type)}` } } },
        },
        responses: {
          '200': {
            description:
              'Any 2xx within 5 s acknowledges the delivery; anything else (a redirect included), or no answer, is retried.',
          },
        },
      },
    },
  ]),
);
