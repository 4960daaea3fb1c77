import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context.ts';
import { meModels, registerMeRoutes } from './modules/accounts/me.routes.ts';
import { attachmentModels, registerAttachmentRoutes } from './modules/attachments/attachment.routes.ts';
import { commentModels, registerCommentRoutes } from './modules/comments/comment.routes.ts';
import { projectModels, registerProjectRoutes } from './modules/projects/projects.routes.ts';
import { registerTaskRoutes, taskModels } from './modules/tasks/task.routes.ts';
import { registerTimeEntryRoutes, timeEntryModels } from './modules/time-entries/time-entry.routes.ts';

/** Every API module, in one place: its shared models (OpenAPI components) and its routes. */
export function registerRoutes(fastify: FastifyInstance, ctx: AppContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  for (const model of [...meModels, ...projectModels, ...taskModels, ...commentModels, ...attachmentModels, ...timeEntryModels]) app.addSchema(model);
  registerMeRoutes(app, ctx);
  registerProjectRoutes(app, ctx);
  registerTaskRoutes(app, ctx);
  registerCommentRoutes(app, ctx);
  registerAttachmentRoutes(app, ctx);
  registerTimeEntryRoutes(app, ctx);
}
