import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context.ts';
import { meModels, registerMeRoutes } from './modules/accounts/me.routes.ts';
import { planningModels, registerPlanningRoutes } from './modules/planning/planning.routes.ts';
import { projectModels, registerProjectRoutes } from './modules/projects/projects.routes.ts';
import { registerStandupRoutes, standupModels } from './modules/standups/standups.routes.ts';
import { registerTaskRoutes, taskModels } from './modules/tasks/task.routes.ts';
import { registerWebhookRoutes, webhookModels } from './modules/webhooks/webhooks.routes.ts';
import { registerWorkflowRoutes, workflowModels } from './modules/workflows/workflows.routes.ts';

/** Every API module, in one place: its shared models (OpenAPI components) and its routes. */
export function registerRoutes(fastify: FastifyInstance, ctx: AppContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const models = [...meModels, ...projectModels, ...taskModels, ...workflowModels, ...planningModels, ...webhookModels, ...standupModels];
  for (const model of models) app.addSchema(model);
  registerMeRoutes(app, ctx);
  registerProjectRoutes(app, ctx);
  registerTaskRoutes(app, ctx);
  registerWorkflowRoutes(app, ctx);
  registerPlanningRoutes(app, ctx);
  registerWebhookRoutes(app, ctx);
  registerStandupRoutes(app, ctx);
}
