import { Type, type Static } from '@sinclair/typebox';
import { PaginationQuery, Timestamp } from '../../http/schemas.ts';
import { UserRef } from '../accounts/user.schemas.ts';

export const MAX_COMMENT_LENGTH = 65536;

export const Comment = Type.Object(
  {
    id: Type.Integer(),
    task: Type.String({ description: 'Task key.' }),
    author: Type.Union([Type.Ref(UserRef), Type.Null()], {
      description: 'The account that posted it; null if that account no longer exists.',
    }),
    body: Type.String({ description: 'Markdown, exactly as posted (never rendered or altered by the service).' }),
    created_at: Timestamp,
    updated_at: Timestamp,
    edited: Type.Boolean({ description: 'True once an edit has changed the body.' }),
  },
  { $id: 'Comment', title: 'Comment' },
);
export type CommentJson = Static<typeof Comment>;

const Body = Type.String({
  minLength: 1,
  maxLength: MAX_COMMENT_LENGTH,
  // Not blank; U+0000 cannot be stored as text by PostgreSQL, so it is refused on every database.
  pattern: '^(?=[\\s\\S]*\\S)[^\\u0000]*$',
  description: `Markdown, 1-${MAX_COMMENT_LENGTH} characters, not blank, no U+0000. Stored exactly as sent.`,
});

export const CommentBody = Type.Object({ body: Body }, { additionalProperties: false });
export type CommentInput = Static<typeof CommentBody>;

export const CommentListQuery = Type.Object({
  ...PaginationQuery,
  ordering: Type.Optional(
    Type.String({ maxLength: 200, description: 'created_at or -created_at. Default: oldest first.' }),
  ),
});
