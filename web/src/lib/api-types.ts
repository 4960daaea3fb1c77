/**
 * Shapes of the published API, taken from the client generated from docs/openapi.json
 * (packages/client), so a change to a schema shows up here as a type error rather than a
 * screen that reads a field that is gone. The console API (`/api/console/`) is not in that
 * document; its shapes are declared next to their fetchers in each feature's api.ts.
 */
import type { components } from '@tasktracker/client';

type Schemas = components['schemas'];

export type Project = Schemas['Project'];
export type Membership = Schemas['Membership'];
export type Task = Schemas['Task'];
export type Category = Task['status_category'];
export type TaskActivity = Schemas['TaskActivity'];
export type TaskFollower = Schemas['TaskFollower'];
export type Comment = Schemas['Comment'];
export type Attachment = Schemas['Attachment'];
export type TimeEntry = Schemas['TimeEntry'];
export type TaskLink = Schemas['TaskLink'];
export type CustomField = Schemas['CustomField'];
export type CustomFieldType = CustomField['type'];
export type CustomFieldOption = Schemas['CustomFieldOption'];
export type Status = Schemas['Status'];
export type Workflow = Schemas['Workflow'];
export type Priority = Schemas['Priority'];
export type TaskType = Schemas['TaskType'];
export type Label = Schemas['Label'];
export type Milestone = Schemas['Milestone'];
export type Sprint = Schemas['Sprint'];
export type WebhookCatalogEntry = Schemas['WebhookCatalogEntry'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookEndpointCreated = Schemas['WebhookEndpointCreated'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookDeliveryDetail = Schemas['WebhookDeliveryDetail'];
export type WebhookAttempt = Schemas['WebhookAttempt'];
export type StandupEntry = Schemas['StandupEntry'];
export type TeamBlocker = Schemas['TeamBlocker'];
export type StandupSettings = Schemas['StandupSettings'];
export type WorklistItem = Schemas['WorklistItem'];
export type View = Schemas['View'];
export type Notification = Schemas['Notification'];
export type NotificationReason = Notification['reason'];
export type NotificationPreferences = Schemas['NotificationPreferences'];
