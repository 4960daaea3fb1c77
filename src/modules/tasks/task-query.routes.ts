import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { listOf } from '../../http/envelope.ts';
import { pageRequest } from '../../http/pagination.ts';
import { errorResponses, ListEnvelope } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { read, tags } from './task.http.ts';
import { Task, TaskQueryListQuery } from './task.schemas.ts';
import { listTasksByQuery } from './task-query.service.ts';

/** Tasks across projects, found by a query. */
export function registerTaskQueryRoute(app: Api, ctx: AppContext): void {
  app.get(
    '/api/v1/tasks/',
    {
      schema: {
        tags,
        summary: 'Find tasks across every project the caller can see, with a query',
        description:
          "`q` is a query (docs/api/query-language.md); without it every visible task is listed. A token restricted to projects sees only theirs. Offset pages follow the query's ORDER BY (newest first without one; ties by project key, then task number); cursor pages walk tasks in id order, as every list does. Names the caller cannot see (statuses, labels, people of hidden projects) match nothing.",
        querystring: TaskQueryListQuery,
        response: { 200: ListEnvelope(Type.Ref(Task)), ...errorResponses() },
      },
      config: read,
    },
    async (request) =>
      listOf(await listTasksByQuery(ctx, principalOf(request), request.query, pageRequest(request.query))),
  );
}
