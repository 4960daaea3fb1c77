import { Type } from '@sinclair/typebox';
import { EVENT_CATALOG, SUBSCRIBABLE_EVENT_TYPES } from '../../events/catalog.ts';
import { Timestamp } from '../../http/schemas.ts';
import { QueryText } from '../query/query.schemas.ts';

const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

export const CatalogEntry = Type.Object(
  {
    type: Type.String({ examples: ['task.status_changed'] }),
    description: Type.String(),
    subscribable: Type.Boolean({
      description: 'False for webhook.test, which only POST .../endpoints/{id}/test/ sends.',
    }),
  },
  { $id: 'WebhookCatalogEntry', title: 'WebhookCatalogEntry' },
);

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'HTTPS URL of the receiver. Refused when it carries credentials, uses a numeric host form, or resolves to a loopback, private, link-local, CGNAT, unique-local, multicast or reserved address; checked on save and again on every attempt.',
  examples: ['https://hooks.example.com/tasktracker'],
});
const Description = Type.String({ maxLength: 1000 });
const Events = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: EVENT_CATALOG.length,
  uniqueItems: true,
  description: `Subscribed event types, from the catalog: ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}.`,
});
const ProjectId = Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
  description: 'Project id, or null for every project the endpoint creator can see when each event is fanned out.',
});

const Filter = Type.Union([QueryText, Type.Null()], {
  description:
    'A query (docs/api/query-language.md) that events about a task must match: sent when the task matches it right after the change, or matched it right before (the change that makes it leave); task.deleted when it matched before. Read as the account that last set the URL, events or filter sees (`me()` is that account), in UTC; ORDER BY is ignored. Null: every event. Refused with 400 INVALID_QUERY when it cannot be run.',
  examples: ['label = bug AND status_category != done'],
});

const Format = Type.Union(
  [Type.Literal('json'), Type.Literal('slack'), Type.Literal('discord'), Type.Literal('teams')],
  {
    description:
      'What each delivery POSTs: `json`, the event envelope; `slack`, `discord` or `teams`, a chat message rendered from it for a Slack incoming webhook, a Discord webhook or a Teams workflow (Adaptive Card), so a channel needs no relay. Signed the same way, over the bytes sent (docs/api/webhooks.md, "Chat formats").',
  },
);

const endpointFields = {
  id: Type.Integer(),
  url: Type.String(),
  description: Type.String(),
  events: Type.Array(Type.String()),
  filter: Filter,
  format: Format,
  project: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Project id, or null when the endpoint spans every project its creator can see.',
  }),
  enabled: Type.Boolean(),
  disabled_reason: Type.Union([Type.String(), Type.Null()], {
    description: 'Why the endpoint is disabled; null while enabled.',
  }),
  created_at: Timestamp,
  created_by: Type.Integer({
    description:
      'User id of the creator. The endpoint receives only events of projects visible to the account that last set its URL, events or filter (at first, the creator) when the event is fanned out.',
  }),
};

export const WebhookEndpoint = Type.Object(endpointFields, { $id: 'WebhookEndpoint', title: 'WebhookEndpoint' });

export const WebhookEndpointCreated = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({
      description:
        'Signing secret (`whsec_...`), shown in this response only. The HMAC key is the whole string as UTF-8.',
    }),
  },
  { $id: 'WebhookEndpointCreated', title: 'WebhookEndpointCreated' },
);

export const EndpointCreateBody = Type.Object(
  {
    url: Url,
    description: Type.Optional(Description),
    events: Type.Optional(
      Type.Union([Events], { description: `${Events.description} Default: every subscribable type.` }),
    ),
    project: Type.Optional(ProjectId),
    filter: Type.Optional(Filter),
    format: Type.Optional(Type.Union([Format], { description: 'Default: `json`.' })),
  },
  { additionalProperties: false },
);

export const EndpointPatchBody = Type.Object(
  {
    url: Type.Optional(Url),
    description: Type.Optional(Description),
    events: Type.Optional(Events),
    project: Type.Optional(ProjectId),
    filter: Type.Optional(Filter),
    format: Type.Optional(Format),
    enabled: Type.Optional(
      Type.Boolean({
        description: 'false pauses deliveries; true re-enables (also after auto-disable) and resets the failure count.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const DeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')], {
  description:
    'pending (waiting for an attempt), delivered (a 2xx arrived), failed (abandoned after the 6th failed attempt).',
});

const deliveryFields = {
  id: Type.Integer(),
  endpoint: Type.Integer({ description: 'Endpoint id.' }),
  event_id: Type.String({ description: 'The envelope `id`; identical on retries and replays.' }),
  event_type: Type.String(),
  status: DeliveryStatus,
  attempts: Type.Integer({ description: 'Attempts made so far (at most 6).' }),
  next_attempt_at: Type.Union([Timestamp, Type.Null()], {
    description: 'When the next attempt is due; null once delivered or failed.',
  }),
  response_status: Type.Union([Type.Integer(), Type.Null()], {
    description: 'HTTP status of the latest attempt, if one arrived.',
  }),
  error: Type.Union([Type.String(), Type.Null()], {
    description: 'Why the latest attempt failed; null after success.',
  }),
  created_at: Timestamp,
  delivered_at: NullableTimestamp,
  test: Type.Boolean({
    description: 'A webhook.test delivery (or a replay of one): never counts toward auto-disable.',
  }),
  replay_of: Type.Union([Type.Integer(), Type.Null()], {
    description: 'The delivery this one replays, if it is a replay.',
  }),
};

export const WebhookDelivery = Type.Object(deliveryFields, { $id: 'WebhookDelivery', title: 'WebhookDelivery' });

export const WebhookAttempt = Type.Object(
  {
    number: Type.Integer({ description: '1 to 6.' }),
    started_at: Timestamp,
    duration_ms: Type.Union([Type.Integer(), Type.Null()], { description: 'Null while the attempt is in flight.' }),
    response_status: Type.Union([Type.Integer(), Type.Null()]),
    error: Type.Union([Type.String(), Type.Null()]),
    response_body: Type.Union([Type.String(), Type.Null()], { description: 'At most the first 4 KiB of the answer.' }),
  },
  { $id: 'WebhookAttempt', title: 'WebhookAttempt' },
);

export const WebhookDeliveryDetail = Type.Object(
  {
    ...deliveryFields,
    attempt_history: Type.Array(Type.Ref(WebhookAttempt), { description: 'Every attempt, oldest first.' }),
  },
  { $id: 'WebhookDeliveryDetail', title: 'WebhookDeliveryDetail' },
);

export const DeliveriesQuery = {
  endpoint: Type.Optional(Type.Integer({ minimum: 1, description: 'Endpoint id filter.' })),
  status: Type.Optional(DeliveryStatus),
  event_type: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Event type filter, such as task.updated or webhook.test.',
    }),
  ),
};

export const VerifyBody = Type.Object(
  {
    endpoint: Type.Integer({ minimum: 1, description: 'Endpoint id whose secret signed the payload.' }),
    timestamp: Type.String({ maxLength: 32, description: 'The X-Service-Timestamp value.' }),
    signature: Type.String({ maxLength: 200, description: 'The X-Service-Signature value, `sha256=<64 hex>`.' }),
    payload: Type.String({ description: 'The raw request body, exactly as received.' }),
  },
  { additionalProperties: false },
);

export const VerifyResult = Type.Object(
  {
    valid: Type.Boolean({
      description: 'True when the signature matches (constant-time comparison). Timestamp age is not judged here.',
    }),
  },
  { $id: 'WebhookVerifyResult', title: 'WebhookVerifyResult' },
);
