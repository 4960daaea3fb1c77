export {
  DEFAULT_TOLERANCE_SECONDS,
  DELIVERY_ID_HEADER,
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  computeSignature,
  headerValue,
  signatureMatches,
  verifyRequest,
  verifyWebhook,
  type HeaderSource,
  type RawBody,
  type VerifyFailure,
  type VerifyInput,
  type VerifyOptions,
  type VerifyResult,
} from './verify.js';
export {
  WebhookRejectedError,
  fastifyWebhookHook,
  getVerifiedWebhook,
  readRawBody,
  verifyWebhookRequest,
  webhookMiddleware,
  type FastifyReplyLike,
  type FastifyRequestLike,
  type NodeRequestLike,
  type NodeResponseLike,
  type RejectReason,
  type VerifiedWebhook,
  type WebhookOptions,
} from './middleware.js';
export {
  type UnknownWebhookEvent,
  type WebhookEvent,
  type WebhookEventMap,
  type WebhookEventOf,
  type WebhookEventType,
} from './events.js';
export { createWebhookHandler, type EventListener, type WebhookHandler } from './handler.js';
export type { components as EventSchemas } from './generated/events.js';
export { EVENT_TYPES } from './generated/event-types.js';
