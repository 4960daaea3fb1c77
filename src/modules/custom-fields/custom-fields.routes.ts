import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { listOf, ok } from '../../http/envelope.ts';
import { commitNoContent } from '../../http/no-content.ts';
import { pageRequest } from '../../http/pagination.ts';
import { Envelope, errorResponses, IdParams, ListEnvelope } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { callerOf } from '../tasks/task.http.ts';
import { commitWrite } from '../../http/unit-of-work.ts';
import {
  CustomField,
  CustomFieldCreateBody,
  type CustomFieldJson,
  CustomFieldListQuery,
  CustomFieldOption,
  CustomFieldOptionDetail,
  CustomFieldUpdateBody,
  OptionRenameBody,
  ReorderBody,
} from './custom-fields.schemas.ts';
import * as fields from './custom-fields.service.ts';

export const customFieldModels = [CustomFieldOption, CustomFieldOptionDetail, CustomField];

const WHO_WRITES =
  'Definitions are workspace-wide: writing them needs the workspace owner or admin role and a token not restricted to projects (403 FORBIDDEN otherwise).';

const tags = ['Custom fields'];
const one = Envelope(Type.Ref(CustomField));
const read = { scope: 'customfields:read' } as const;
const write = { scope: 'customfields:write' } as const;

export function registerCustomFieldRoutes(app: Api, ctx: AppContext): void {
  registerDefinitionRoutes(app, ctx);
  registerOptionRoutes(app, ctx);
}

/** The definitions: list, define, read, change, delete. */
function registerDefinitionRoutes(app: Api, ctx: AppContext): void {
  app.get(
    '/api/v1/custom-fields/',
    {
      schema: {
        tags,
        summary: "List the workspace's custom field definitions",
        querystring: CustomFieldListQuery,
        response: { 200: ListEnvelope(Type.Ref(CustomField)), ...errorResponses(404) },
      },
      config: read,
    },
    async (request) =>
      listOf(await fields.listFields(ctx, principalOf(request), request.query.project, pageRequest(request.query))),
  );

  app.post(
    '/api/v1/custom-fields/',
    {
      schema: {
        tags,
        summary: 'Define a custom field (with its options, for select types)',
        description: `${WHO_WRITES} Project ids you cannot see are 404 (\`details.projects\`); a name already used in the workspace is 409 ALREADY_EXISTS.`,
        body: CustomFieldCreateBody,
        response: { 201: one, ...errorResponses(404, 409) },
      },
      config: write,
    },
    async (request, reply) => {
      reply.code(201);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => fields.createField(tx, principalOf(request), request.body),
        ok<CustomFieldJson>,
      );
    },
  );

  app.get(
    '/api/v1/custom-fields/:id/',
    {
      schema: {
        tags,
        summary: 'Read a custom field definition',
        params: IdParams,
        response: { 200: one, ...errorResponses(404) },
      },
      config: read,
    },
    async (request) => ok(await fields.getField(ctx, principalOf(request), request.params.id)),
  );

  app.put(
    '/api/v1/custom-fields/:id/',
    {
      schema: {
        tags,
        summary: 'Change a custom field definition (any subset; options as a complete list)',
        description: `${WHO_WRITES} Deleting an option that tasks hold is 409 OPTION_IN_USE; narrowing \`projects\` while tasks of the projects left out hold values is 409 FIELD_IN_USE. Applicability to projects you cannot see is kept as it is.`,
        params: IdParams,
        body: CustomFieldUpdateBody,
        response: { 200: one, ...errorResponses(404, 409) },
      },
      config: write,
    },
    async (request, reply) =>
      commitWrite(
        ctx,
        request,
        reply,
        (tx) => fields.updateField(tx, principalOf(request), request.params.id, request.body),
        ok<CustomFieldJson>,
      ),
  );

  app.delete(
    '/api/v1/custom-fields/:id/',
    {
      schema: {
        tags,
        summary: 'Delete a custom field and every value of it',
        description: `${WHO_WRITES} Each task that held a value loses it like in an edit: an activity entry, a change record and a task.updated event with \`changes["custom_fields.<id>"]\`.`,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404) },
      },
      config: write,
    },
    async (request, reply) => {
      const caller = callerOf(request);
      return commitNoContent(ctx, reply, (tx) => fields.deleteField(tx, caller, request.params.id));
    },
  );
}

/** A field's options beyond its definition's list: renaming one, ordering them. */
function registerOptionRoutes(app: Api, ctx: AppContext): void {
  app.put(
    '/api/v1/custom-fields/options/:id/',
    {
      schema: {
        tags,
        summary: 'Rename an option (task values keep pointing at it)',
        description: `${WHO_WRITES} Values store option ids, so a rename shows in every task that holds the option and rewrites nothing. A value another option of the field has is 409 ALREADY_EXISTS.`,
        params: IdParams,
        body: OptionRenameBody,
        response: { 200: Envelope(Type.Ref(CustomFieldOptionDetail)), ...errorResponses(404, 409) },
      },
      config: write,
    },
    async (request, reply) =>
      commitWrite(
        ctx,
        request,
        reply,
        (tx) => fields.renameOption(tx, principalOf(request), request.params.id, request.body.value),
        ok,
      ),
  );

  app.post(
    '/api/v1/custom-fields/reorder/',
    {
      schema: {
        tags,
        summary: "Set the order a field's options are offered in",
        description: `${WHO_WRITES} \`options\` must list every option id of the field exactly once. Changes only the order (positions), never stored values.`,
        body: ReorderBody,
        response: { 200: one, ...errorResponses(404) },
      },
      config: write,
    },
    async (request, reply) => {
      const { field, options } = request.body;
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => fields.reorderOptions(tx, principalOf(request), field, options),
        ok<CustomFieldJson>,
      );
    },
  );
}
