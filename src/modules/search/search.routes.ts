import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { list } from '../../http/envelope.ts';
import { pageRequest } from '../../http/pagination.ts';
import { errorResponses, ListEnvelope, PaginationQuery } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { Task } from '../tasks/task.schemas.ts';
import { searchTasks } from './search.service.ts';

export function registerSearchRoutes(app: Api, ctx: AppContext): void {
  app.get(
    '/api/v1/search/',
    {
      schema: {
        tags: ['Search'],
        summary: 'Full-text search over the titles and descriptions of visible tasks',
        description:
          'Every word must match (stemmed, accents folded); the last word also matches as a prefix. ' +
          'Search syntax characters are ignored. Ranked by relevance unless `ordering` is given ' +
          '(`relevance`, `created_at`, `updated_at`, `key`): tasks whose title holds every word first, ' +
          'then tasks matching through their description, newest first within each. ' +
          'Offset pages reach the first 1,000 matches in that order: `pagination.count` counts at most 1,000, ' +
          'and a page past the 1,000th match is empty; a cursor walk (`cursor`) reaches every match. ' +
          'Has its own rate limit: 60 requests per minute per token.',
        querystring: Type.Object({
          ...PaginationQuery,
          q: Type.String({ minLength: 1, maxLength: 500, description: 'The text to search for.' }),
          project: Type.Optional(Type.String({ description: 'Project key.' })),
          status: Type.Optional(Type.String({ description: 'Status name.' })),
          assignee: Type.Optional(Type.Integer({ minimum: 1, description: 'Assignee user id.' })),
        }),
        response: { 200: ListEnvelope(Type.Ref(Task)), ...errorResponses() },
      },
      config: { scope: 'tasks:read', bucket: 'search' },
    },
    async (request) => {
      const { q, project, status, assignee } = request.query;
      const { data, pagination } = await searchTasks(
        ctx,
        principalOf(request),
        { q, project, status, assignee },
        pageRequest(request.query),
      );
      return list(data, pagination);
    },
  );
}
