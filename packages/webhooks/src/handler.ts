/**
 * A typed event handler over the verifier: `on('task.status_changed', (event) => ...)` gets
 * that event's type, `data` included. Deliveries are verified first (the same checks as
 * verifyWebhookRequest); handlers of one delivery run one after another, and the delivery is
 * acknowledged only when all of them succeeded, so a failing handler gets the event again later.
 */
import type { WebhookEvent, WebhookEventOf, WebhookEventType, UnknownWebhookEvent } from './events.js';
import { EVENT_TYPES } from './generated/event-types.js';
import {
  rawBodyOf,
  verifyWebhookRequest,
  WebhookRejectedError,
  type NodeRequestLike,
  type NodeResponseLike,
  type VerifiedWebhook,
  type WebhookOptions,
} from './middleware.js';
import type { HeaderSource, RawBody } from './verify.js';

/** A handler of one event; what it returns is awaited. */
export type EventListener<E> = (event: E, delivery: VerifiedWebhook) => unknown;

export interface WebhookHandler {
  /** Runs `listener` for every event of `type`, after the listeners added before it. */
  on<T extends WebhookEventType>(type: T, listener: EventListener<WebhookEventOf<T>>): WebhookHandler;
  /** Runs `listener` for every event of a type this version knows, after the listeners of its type. */
  onAny(listener: EventListener<WebhookEvent>): WebhookHandler;
  /** Runs `listener` for every event of a type this version does not know (sent by a newer service). */
  onUnknown(listener: EventListener<UnknownWebhookEvent>): WebhookHandler;
  /** Runs the listeners of an event already verified (by the middleware, the hook or yourself); resolves to how many ran. */
  dispatch(delivery: VerifiedWebhook): Promise<number>;
  /** Verifies a delivery (throwing `WebhookRejectedError`), then dispatches it. */
  handle(headers: HeaderSource, rawBody: RawBody): Promise<VerifiedWebhook>;
  /**
   * A request listener for Node's http server, Express (after `express.raw()`) and the like:
   * verifies, dispatches, then answers `204`; `400`/`401`/`413` for a refused delivery, `500`
   * when a listener throws (the service retries it later), each with `{"error": reason}`.
   */
  listener(): (req: NodeRequestLike, res: NodeResponseLike) => Promise<void>;
}

const KNOWN = new Set<string>(EVENT_TYPES);

export function createWebhookHandler(options: WebhookOptions): WebhookHandler {
  const byType = new Map<string, EventListener<never>[]>();
  const any: EventListener<never>[] = [];
  const unknown: EventListener<never>[] = [];

  const handler: WebhookHandler = {
    on(type, listener) {
      byType.set(type, [...(byType.get(type) ?? []), listener as EventListener<never>]);
      return handler;
    },
    onAny(listener) {
      any.push(listener as EventListener<never>);
      return handler;
    },
    onUnknown(listener) {
      unknown.push(listener as EventListener<never>);
      return handler;
    },
    async dispatch(delivery) {
      const { type } = delivery.event;
      const listeners = (
        KNOWN.has(type) ? [...(byType.get(type) ?? []), ...any] : unknown
      ) as EventListener<WebhookEvent>[];
      for (const listener of listeners) await listener(delivery.event, delivery);
      return listeners.length;
    },
    async handle(headers, rawBody) {
      const delivery = verifyWebhookRequest(headers, rawBody, options);
      await handler.dispatch(delivery);
      return delivery;
    },
    listener() {
      return async (req, res) => {
        const answer = (status: number, error?: string): void => {
          res.statusCode = status;
          if (error !== undefined) res.setHeader('content-type', 'application/json');
          res.end(error === undefined ? '' : JSON.stringify({ error }));
        };
        let delivery: VerifiedWebhook;
        try {
          delivery = verifyWebhookRequest(req.headers, await rawBodyOf(req, options.maxBodyBytes), options);
        } catch (error) {
          if (error instanceof WebhookRejectedError) return answer(error.status, error.reason);
          throw error;
        }
        try {
          await handler.dispatch(delivery);
        } catch {
          return answer(500, 'handler_failed');
        }
        answer(204);
      };
    },
  };
  return handler;
}
