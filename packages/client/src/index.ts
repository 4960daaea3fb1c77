export {
  createClient,
  type ClientOptions,
  type ItemOf,
  type ListPaths,
  type Method,
  type OperationInit,
  type PathsFor,
  type RawClient,
  type Reply,
  type RequestExtras,
  type SuccessBody,
  type TaskTrackerClient,
} from './client.js';
export {
  ApiError,
  ERROR_STATUS,
  NetworkError,
  isApiError,
  toApiError,
  type BulkItemError,
  type ErrorCode,
  type ErrorDetails,
  type ErrorDetailsByCode,
} from './errors.js';
export { ifMatch, updateWithETag, type UpdateOptions } from './etag.js';
export { type EventStreamOptions } from './event-stream.js';
export { type CallOptions, type ListCall, type Resources } from './resources.js';
export { RESOURCES } from './generated/resources.js';
export type { WebhookEvent, WebhookEventMap, WebhookEventOf, WebhookEventType } from './events.js';
export { idempotencyKey } from './idempotency.js';
export { mayRepeat, retryAfterMs, type RetryOptions, type Timing } from './retry.js';
export {
  syncTaskChanges,
  type ChangeRecord,
  type HighWaterStore,
  type SyncOptions,
  type SyncResult,
  type Task,
} from './sync.js';
export type { components, paths, webhooks } from './generated/openapi.js';

import type { components } from './generated/openapi.js';
type Schemas = components['schemas'];
export type Project = Schemas['Project'];
export type Comment = Schemas['Comment'];
export type Label = Schemas['Label'];
export type Milestone = Schemas['Milestone'];
export type Sprint = Schemas['Sprint'];
export type Status = Schemas['Status'];
export type Workflow = Schemas['Workflow'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
