import { Type } from '@sinclair/typebox';
import { PaginationQuery, Timestamp } from '../../http/schemas.ts';
import { UserRef } from '../accounts/user.schemas.ts';

export const Attachment = Type.Object(
  {
    id: Type.Integer(),
    task: Type.String({ description: 'Task key.' }),
    filename: Type.String({
      description:
        "The uploaded file's name, cleaned (last path segment, no control characters, at most 255 characters). For display only.",
    }),
    content_type: Type.String({
      description:
        'Media type of the uploaded part as the client sent it (lowercased, parameters dropped); `text/plain` when the part had none (RFC 7578).',
    }),
    size: Type.Integer({ description: 'Bytes.' }),
    sha256: Type.String({ description: 'Hex SHA-256 of the content; also the ETag of the content endpoint.' }),
    uploaded_by: Type.Union([Type.Ref(UserRef), Type.Null()], { description: 'null if the account no longer exists.' }),
    created_at: Timestamp,
  },
  { $id: 'Attachment', title: 'Attachment' },
);

export const AttachmentListQuery = Type.Object({
  ...PaginationQuery,
  ordering: Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'created_at, filename or size; `-` for descending. Default: created_at (oldest first).',
    }),
  ),
});

/** Documentation of the multipart body; the handler itself checks what arrives (see attachment.routes.ts). */
export const AttachmentUploadBody = Type.Object(
  {
    file: Type.String({
      format: 'binary',
      description: "The file. Its part's `filename` and `Content-Type` are recorded.",
    }),
  },
  { required: ['file'], additionalProperties: false },
);
