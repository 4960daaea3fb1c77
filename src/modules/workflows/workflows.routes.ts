import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { listOf, ok } from '../../http/envelope.ts';
import { commitNoContent } from '../../http/no-content.ts';
import { pageRequest } from '../../http/pagination.ts';
import { commitWrite } from '../../http/unit-of-work.ts';
import { Envelope, errorResponses, IdParams, ListEnvelope, PaginationQuery } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { ProjectKeyParams } from '../projects/projects.schemas.ts';
import { listProjectOptions } from './project-options.service.ts';
import { registerStatusRoutes } from './statuses.routes.ts';
import * as transitions from './transitions.service.ts';
import type { TransitionJson, WorkflowJson } from './workflows.presenter.ts';
import * as workflows from './workflows.service.ts';
import {
  Priority,
  Status,
  TaskType,
  Transition,
  TransitionCreateBody,
  TransitionListQuery,
  TransitionUpdateBody,
  Workflow,
  WorkflowCreateBody,
  WorkflowListQuery,
  WorkflowTransition,
  WorkflowUpdateBody,
} from './workflows.schemas.ts';

export const workflowModels = [Status, WorkflowTransition, Transition, Workflow, Priority, TaskType];

/** Statuses, transitions and workflows, and the priorities and task types each project offers (docs/domain/projects-and-workflows.md). */
export function registerWorkflowRoutes(app: Api, ctx: AppContext): void {
  registerStatusRoutes(app, ctx);
  registerTransitionRoutes(app, ctx);
  registerWorkflowDefinitionRoutes(app, ctx);
  registerProjectOptionRoutes(app, ctx);
}

function registerTransitionRoutes(app: Api, ctx: AppContext): void {
  const tags = ['Workflows'];
  const one = Envelope(Type.Ref(Transition));

  app.get(
    '/api/v1/transitions/',
    {
      schema: {
        tags,
        summary: "List transitions of visible projects' workflows",
        description:
          "A task may move from `from_status` to `to_status` only along a transition of its project's active workflow.",
        querystring: TransitionListQuery,
        response: { 200: ListEnvelope(Type.Ref(Transition)), ...errorResponses() },
      },
      config: { scope: 'workflows:read' },
    },
    async (request) =>
      listOf(
        await transitions.listTransitions(
          ctx,
          principalOf(request),
          { workflow: request.query.workflow },
          pageRequest(request.query),
        ),
      ),
  );

  app.post(
    '/api/v1/transitions/',
    {
      schema: {
        tags,
        summary: 'Permit a move between two statuses (project admins)',
        description:
          "Both statuses must belong to the workflow's project and differ. A pair already permitted is 409 ALREADY_EXISTS (`details.transition`).",
        body: TransitionCreateBody,
        response: { 201: one, ...errorResponses(404, 409) },
      },
      config: { scope: 'workflows:write' },
    },
    async (request, reply) => {
      reply.code(201);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => transitions.createTransition(tx, principalOf(request), request.body),
        ok<TransitionJson>,
      );
    },
  );

  app.get(
    '/api/v1/transitions/:id/',
    {
      schema: { tags, summary: 'Read a transition', params: IdParams, response: { 200: one, ...errorResponses(404) } },
      config: { scope: 'workflows:read' },
    },
    async (request) => ok(await transitions.getTransition(ctx, principalOf(request), request.params.id)),
  );

  app.put(
    '/api/v1/transitions/:id/',
    {
      schema: {
        tags,
        summary: "Change a transition's statuses or name",
        description: 'A default name ("From → To") follows a changed pair; a chosen name is kept.',
        params: IdParams,
        body: TransitionUpdateBody,
        response: { 200: one, ...errorResponses(404, 409) },
      },
      config: { scope: 'workflows:write' },
    },
    async (request, reply) =>
      commitWrite(
        ctx,
        request,
        reply,
        (tx) => transitions.updateTransition(tx, principalOf(request), request.params.id, request.body),
        ok<TransitionJson>,
      ),
  );

  app.delete(
    '/api/v1/transitions/:id/',
    {
      schema: {
        tags,
        summary: 'Stop permitting a move',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404) },
      },
      config: { scope: 'workflows:write' },
    },
    async (request, reply) =>
      commitNoContent(ctx, reply, (tx) => transitions.deleteTransition(tx, principalOf(request), request.params.id)),
  );
}

function registerWorkflowDefinitionRoutes(app: Api, ctx: AppContext): void {
  const tags = ['Workflows'];
  const one = Envelope(Type.Ref(Workflow));

  app.get(
    '/api/v1/workflows/',
    {
      schema: {
        tags,
        summary: 'List workflows of visible projects, with their transitions',
        querystring: WorkflowListQuery,
        response: { 200: ListEnvelope(Type.Ref(Workflow)), ...errorResponses() },
      },
      config: { scope: 'workflows:read' },
    },
    async (request) =>
      listOf(
        await workflows.listWorkflows(
          ctx,
          principalOf(request),
          { project: request.query.project },
          pageRequest(request.query),
        ),
      ),
  );

  app.post(
    '/api/v1/workflows/',
    {
      schema: {
        tags,
        summary: 'Create a workflow for a project (project admins)',
        description:
          'It starts without transitions. Add them, then `PUT {"active": true}` to switch the project to it; creating it with ' +
          '`active: true` switches at once, leaving tasks unable to change status until transitions exist.',
        body: WorkflowCreateBody,
        response: { 201: one, ...errorResponses(404, 409) },
      },
      config: { scope: 'workflows:write' },
    },
    async (request, reply) => {
      reply.code(201);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => workflows.createWorkflow(tx, principalOf(request), request.body),
        ok<WorkflowJson>,
      );
    },
  );

  app.get(
    '/api/v1/workflows/:id/',
    {
      schema: { tags, summary: 'Read a workflow', params: IdParams, response: { 200: one, ...errorResponses(404) } },
      config: { scope: 'workflows:read' },
    },
    async (request) => ok(await workflows.getWorkflow(ctx, principalOf(request), request.params.id)),
  );

  app.put(
    '/api/v1/workflows/:id/',
    {
      schema: {
        tags,
        summary: 'Rename, describe or activate a workflow',
        description:
          "`active: true` makes it the project's workflow; `active: false` on the active workflow is 409 WORKFLOW_IN_USE.",
        params: IdParams,
        body: WorkflowUpdateBody,
        response: { 200: one, ...errorResponses(404, 409) },
      },
      config: { scope: 'workflows:write' },
    },
    async (request, reply) =>
      commitWrite(
        ctx,
        request,
        reply,
        (tx) => workflows.updateWorkflow(tx, principalOf(request), request.params.id, request.body),
        ok<WorkflowJson>,
      ),
  );

  app.delete(
    '/api/v1/workflows/:id/',
    {
      schema: {
        tags,
        summary: 'Delete an inactive workflow and its transitions',
        description:
          "The project's active workflow is refused with 409 WORKFLOW_IN_USE. Statuses belong to the project and stay.",
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404, 409) },
      },
      config: { scope: 'workflows:write' },
    },
    async (request, reply) =>
      commitNoContent(ctx, reply, (tx) => workflows.deleteWorkflow(tx, principalOf(request), request.params.id)),
  );
}

function registerProjectOptionRoutes(app: Api, ctx: AppContext): void {
  const options = [
    ['priorities', Priority, 'priorities'],
    ['task-types', TaskType, 'task_types'],
  ] as const;
  for (const [segment, model, table] of options) {
    app.get(
      `/api/v1/projects/:project_key/${segment}/`,
      {
        schema: {
          tags: ['Tasks'],
          summary: `List the ${segment.replace('-', ' ')} a project offers`,
          description:
            'Ordered by `position` unless `ordering` says otherwise. `is_default` marks what new tasks get when none is given.',
          params: ProjectKeyParams,
          querystring: Type.Object(PaginationQuery),
          response: { 200: ListEnvelope(Type.Ref(model)), ...errorResponses(404) },
        },
        config: { scope: 'tasks:read' },
      },
      async (request) =>
        listOf(
          await listProjectOptions(
            ctx,
            principalOf(request),
            request.params.project_key,
            table,
            pageRequest(request.query),
          ),
        ),
    );
  }
}
