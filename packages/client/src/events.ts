/**
 * The events the service sends (webhooks and the event stream), typed from the OpenAPI
 * document's webhooks section: a type the document gains becomes a member of these types when
 * the client is regenerated. @tasktracker/webhooks derives the same types from the same section.
 */
import type { webhooks } from './generated/openapi.js';

type BodyOf<P> = P extends { post: { requestBody: { content: { 'application/json': infer B } } } } ? B : never;

/** Every event by its type, e.g. `WebhookEventMap['task.status_changed']`. */
export type WebhookEventMap = { [T in keyof webhooks & string]: BodyOf<webhooks[T]> };

/** The event types this version of the client knows. */
export type WebhookEventType = keyof WebhookEventMap;

/** One event of the given type. */
export type WebhookEventOf<T extends WebhookEventType> = WebhookEventMap[T];

/** Any event this version knows, discriminated on `type`. */
export type WebhookEvent = WebhookEventMap[WebhookEventType];
