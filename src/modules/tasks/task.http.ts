import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { originFromPrincipal } from '../../events/record-event.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { ok } from '../../http/envelope.ts';
import { Envelope } from '../../http/schemas.ts';
import { etagOf, type TaskSnapshot } from './task.presenter.ts';
import { Task } from './task.schemas.ts';
import type { Caller } from '../../identity/caller.ts';

/** What the task route files share: the caller of a request, the If-Match header and the one-task response. */

export const tags = ['Tasks'];
export const read = { scope: 'tasks:read' } as const;
export const write = { scope: 'tasks:write' } as const;

export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      description:
        'An ETag from a previous read (or `*`): the write happens only if the task has not changed since (412 otherwise).',
    }),
  ),
});

const etagHeader = {
  ETag: {
    type: 'string',
    description: 'Version of the task; send it back in If-Match to avoid overwriting a concurrent change.',
  },
};

/** The response of a route answering with one task, its ETag header documented. */
export const OneTask = Type.Object({ ...Envelope(Type.Ref(Task)).properties }, { headers: etagHeader });

export function callerOf(request: FastifyRequest): Caller {
  const principal = principalOf(request);
  return { principal, origin: originFromPrincipal(principal, request.id) };
}

/** The `respond` of a write answering with one task (see commitWrite): the task, and its ETag header. */
export const withEtag = (reply: FastifyReply) => (snapshot: TaskSnapshot) => {
  reply.header('etag', etagOf(snapshot.row.version));
  return ok(snapshot.task);
};
