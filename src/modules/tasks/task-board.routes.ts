import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { ok } from '../../http/envelope.ts';
import { Envelope, errorResponses } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { ProjectKeyParams } from '../projects/projects.schemas.ts';
import { read, tags } from './task.http.ts';
import { Board, BoardQuery } from './task-board.schemas.ts';
import { readBoard } from './task-board.service.ts';

/** A project's board: columns with their counts and first cards in one request, then a column's next cards. */
export function registerBoardRoute(app: Api, ctx: AppContext): void {
  app.get(
    '/api/v1/projects/:project_key/board/',
    {
      schema: {
        tags,
        summary: 'Read a project as a board: per status, how many tasks match and the first cards',
        description:
          'One request opens a board whatever the size of the project: every status in board order, with `count` (tasks in it matching the filters) and its first `limit` cards, oldest first. A column\'s next cards: the same request with `status` and that column\'s `next_cursor` as `cursor`. The filters are those of the task list, plus `text`. Cards are tasks without description and custom fields, and carry `version` (the ETag is `"v<version>"`), so a live `change` event whose version a client already holds needs no read.',
        params: ProjectKeyParams,
        querystring: BoardQuery,
        response: { 200: Envelope(Type.Ref(Board)), ...errorResponses(404) },
      },
      config: read,
    },
    async (request) => ok(await readBoard(ctx, principalOf(request), request.params.project_key, request.query)),
  );
}
