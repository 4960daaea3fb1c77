import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context.ts';
import type { Api } from './http/types.ts';
import { meModels, registerMeRoutes } from './modules/accounts/me.routes.ts';
import { changesModels, registerChangesRoutes } from './modules/changes/changes.routes.ts';
import { attachmentModels, registerAttachmentRoutes } from './modules/attachments/attachment.routes.ts';
import { commentModels, registerCommentRoutes } from './modules/comments/comment.routes.ts';
import { customFieldModels, registerCustomFieldRoutes } from './modules/custom-fields/custom-fields.routes.ts';
import { linkModels, registerLinkRoutes } from './modules/links/links.routes.ts';
import {
  notificationModels,
  registerNotificationRoutes,
  registerUnsubscribeRoutes,
} from './modules/notifications/notifications.routes.ts';
import { registerLiveRoutes } from './modules/live/live.routes.ts';
import { registerMcpRoutes } from './modules/mcp/mcp.routes.ts';
import { registerEventRoutes } from './modules/events/events.routes.ts';
import { planningModels, registerPlanningRoutes } from './modules/planning/planning.routes.ts';
import { registerReportRoutes, reportModels } from './modules/reports/reports.routes.ts';
import { projectModels, registerProjectRoutes } from './modules/projects/projects.routes.ts';
import { registerSearchRoutes } from './modules/search/search.routes.ts';
import { registerStandupRoutes, standupModels } from './modules/standups/standups.routes.ts';
import { registerTaskRoutes, taskModels } from './modules/tasks/task.routes.ts';
import { registerTimeEntryRoutes, timeEntryModels } from './modules/time-entries/time-entry.routes.ts';
import { registerViewRoutes, viewModels } from './modules/views/views.routes.ts';
import { registerWebhookRoutes, webhookModels } from './modules/webhooks/webhooks.routes.ts';
import { registerWorkflowRoutes, workflowModels } from './modules/workflows/workflows.routes.ts';

/** Every API module, in one place: its shared models (OpenAPI components) and its routes. */
const MODULES: Array<{ models: TSchema[]; register: (app: Api, ctx: AppContext) => void }> = [
  { models: meModels, register: registerMeRoutes },
  { models: notificationModels, register: registerNotificationRoutes },
  { models: [], register: registerUnsubscribeRoutes },
  { models: projectModels, register: registerProjectRoutes },
  { models: taskModels, register: registerTaskRoutes },
  { models: commentModels, register: registerCommentRoutes },
  { models: attachmentModels, register: registerAttachmentRoutes },
  { models: timeEntryModels, register: registerTimeEntryRoutes },
  { models: linkModels, register: registerLinkRoutes },
  { models: customFieldModels, register: registerCustomFieldRoutes },
  { models: workflowModels, register: registerWorkflowRoutes },
  { models: planningModels, register: registerPlanningRoutes },
  { models: reportModels, register: registerReportRoutes },
  { models: webhookModels, register: registerWebhookRoutes },
  { models: standupModels, register: registerStandupRoutes },
  { models: [], register: registerSearchRoutes },
  { models: viewModels, register: registerViewRoutes },
  { models: changesModels, register: registerChangesRoutes },
  { models: [], register: registerLiveRoutes },
  { models: [], register: registerEventRoutes },
  { models: [], register: registerMcpRoutes },
];

export function registerRoutes(fastify: FastifyInstance, ctx: AppContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  for (const { models } of MODULES) for (const model of models) app.addSchema(model);
  for (const { register } of MODULES) register(app, ctx);
}
