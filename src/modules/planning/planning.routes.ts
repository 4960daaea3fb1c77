import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { originFromPrincipal, type ActionOrigin } from '../../events/record-event.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { listOf, ok } from '../../http/envelope.ts';
import { commitNoContent } from '../../http/no-content.ts';
import { type PageRequest, type Pagination, pageRequest } from '../../http/pagination.ts';
import { commitWrite } from '../../http/unit-of-work.ts';
import { Envelope, errorResponses, IdParams, ListEnvelope } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import type { Principal } from '../../identity/principal.ts';
import { ProjectKeyParams } from '../projects/projects.schemas.ts';
import * as labels from './labels.service.ts';
import * as milestones from './milestones.service.ts';
import {
  Label,
  LabelCreateBody,
  LabelListQuery,
  LabelUpdateBody,
  Milestone,
  MilestoneCreateBody,
  MilestoneListQuery,
  MilestoneUpdateBody,
  Sprint,
  SprintCreateBody,
  SprintListQuery,
  SprintUpdateBody,
} from './planning.schemas.ts';
import * as sprints from './sprints.service.ts';

export const planningModels = [Label, Milestone, Sprint];

type Item = Record<string, unknown>;

/* eslint-disable @typescript-eslint/no-explicit-any -- the three resources share one route shape; TypeBox validates each body and query. */
interface PlanningResource {
  /** Path segment, e.g. `milestones`. */
  plural: string;
  singular: string;
  model: TObject & { $id?: string };
  listQuery: TObject;
  createBody: TSchema;
  updateBody: TSchema;
  /** Filters the list takes besides pagination. */
  filters: (query: any) => Record<string, unknown>;
  list(
    ctx: AppContext,
    principal: Principal,
    key: string,
    filters: any,
    page: PageRequest,
  ): Promise<{ data: Item[]; pagination: Pagination }>;
  create(tx: Tx, principal: Principal, key: string, body: any, origin: ActionOrigin): Promise<Item>;
  get(ctx: AppContext, principal: Principal, id: number): Promise<Item>;
  update(tx: Tx, principal: Principal, id: number, body: any, origin: ActionOrigin): Promise<Item>;
  remove(tx: Tx, principal: Principal, id: number, origin: ActionOrigin): Promise<void>;
  notes: { create?: string; update?: string; remove: string };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

const DETACH_NOTE =
  'Every task carrying it loses it in the same transaction, and each such task counts as updated (new `updated_at` and ETag). ' +
  'The tasks themselves stay.';

const RESOURCES: PlanningResource[] = [
  {
    plural: 'labels',
    singular: 'label',
    model: Label,
    listQuery: LabelListQuery,
    createBody: LabelCreateBody,
    updateBody: LabelUpdateBody,
    filters: () => ({}),
    list: (ctx, principal, key, _filters, page) => labels.listLabels(ctx, principal, key, page),
    create: labels.createLabel,
    get: labels.getLabel,
    update: labels.updateLabel,
    remove: labels.deleteLabel,
    notes: {
      create: 'Names are unique in the project (409 ALREADY_EXISTS). `color` defaults to `#ededed`.',
      remove: DETACH_NOTE,
    },
  },
  {
    plural: 'milestones',
    singular: 'milestone',
    model: Milestone,
    listQuery: MilestoneListQuery,
    createBody: MilestoneCreateBody,
    updateBody: MilestoneUpdateBody,
    filters: (query: { state?: string }) => ({ state: query.state }),
    list: milestones.listMilestones,
    create: milestones.createMilestone,
    get: milestones.getMilestone,
    update: milestones.updateMilestone,
    remove: milestones.deleteMilestone,
    notes: {
      create: 'Names are unique in the project (409 ALREADY_EXISTS).',
      remove: DETACH_NOTE,
    },
  },
  {
    plural: 'sprints',
    singular: 'sprint',
    model: Sprint,
    listQuery: SprintListQuery,
    createBody: SprintCreateBody,
    updateBody: SprintUpdateBody,
    filters: (query: { state?: string }) => ({ state: query.state }),
    list: sprints.listSprints,
    create: sprints.createSprint,
    get: sprints.getSprint,
    update: sprints.updateSprint,
    remove: sprints.deleteSprint,
    notes: {
      create:
        'Names are unique in the project (409 ALREADY_EXISTS). `end_date` before `start_date` is a 400. A second `active` sprint ' +
        'is 409 ACTIVE_SPRINT_EXISTS (`details.sprint` names the active one).',
      update:
        'Any state change is allowed (start, complete, reopen) while at most one sprint of the project is active.',
      remove: DETACH_NOTE,
    },
  },
];

const LIST_ORDERING: Record<string, string> = {
  labels: 'Ordered by `name` by default; also `id`, `created_at`, `updated_at`.',
  milestones: 'Ordered by `due_date` by default, undated last; also `name`, `state`, `id`, `created_at`, `updated_at`.',
  sprints:
    'Ordered by `start_date` by default, undated last; also `end_date`, `name`, `state`, `id`, `created_at`, `updated_at`.',
};

/** Labels, milestones and sprints per project, plus their id-addressed endpoints (docs/domain/projects-and-workflows.md). */
export function registerPlanningRoutes(app: Api, ctx: AppContext): void {
  for (const resource of RESOURCES) registerResource(app, ctx, resource);
}

function registerResource(app: Api, ctx: AppContext, r: PlanningResource): void {
  const tags = [r.plural[0]!.toUpperCase() + r.plural.slice(1)];
  const one = Envelope(Type.Ref(r.model));
  const collection = `/api/v1/projects/:project_key/${r.plural}/`;
  const item = `/api/v1/${r.plural}/:id/`;

  app.get(
    collection,
    {
      schema: {
        tags,
        summary: `List a project's ${r.plural}`,
        description: LIST_ORDERING[r.plural],
        params: ProjectKeyParams,
        querystring: r.listQuery,
        response: { 200: ListEnvelope(Type.Ref(r.model)), ...errorResponses(404) },
      },
      config: { scope: 'tasks:read' },
    },
    async (request) => {
      const query = request.query as Record<string, unknown>;
      return listOf(
        await r.list(ctx, principalOf(request), request.params.project_key, r.filters(query), pageRequest(query)),
      );
    },
  );

  app.post(
    collection,
    {
      schema: {
        tags,
        summary: `Create a ${r.singular} in a project (any project role but viewer)`,
        description: r.notes.create,
        params: ProjectKeyParams,
        body: r.createBody,
        response: { 201: one, ...errorResponses(404, 409) },
      },
      config: { scope: 'tasks:write' },
    },
    async (request, reply) => {
      reply.code(201);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => {
          const principal = principalOf(request);
          return r.create(
            tx,
            principal,
            request.params.project_key,
            request.body,
            originFromPrincipal(principal, request.id),
          );
        },
        ok<Item>,
      );
    },
  );

  app.get(
    item,
    {
      schema: {
        tags,
        summary: `Read a ${r.singular}`,
        params: IdParams,
        response: { 200: one, ...errorResponses(404) },
      },
      config: { scope: 'tasks:read' },
    },
    async (request) => ok(await r.get(ctx, principalOf(request), request.params.id)),
  );

  app.put(
    item,
    {
      schema: {
        tags,
        summary: `Change a ${r.singular} (omitted fields keep their values)`,
        description: r.notes.update,
        params: IdParams,
        body: r.updateBody,
        response: { 200: one, ...errorResponses(404, 409) },
      },
      config: { scope: 'tasks:write' },
    },
    async (request, reply) =>
      commitWrite(
        ctx,
        request,
        reply,
        (tx) => {
          const principal = principalOf(request);
          return r.update(tx, principal, request.params.id, request.body, originFromPrincipal(principal, request.id));
        },
        ok<Item>,
      ),
  );

  app.delete(
    item,
    {
      schema: {
        tags,
        summary: `Delete a ${r.singular} and take it off its tasks`,
        description: r.notes.remove,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404) },
      },
      config: { scope: 'tasks:write' },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      return commitNoContent(ctx, reply, (tx) =>
        r.remove(tx, principal, request.params.id, originFromPrincipal(principal, request.id)),
      );
    },
  );
}
