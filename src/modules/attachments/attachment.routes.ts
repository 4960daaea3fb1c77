import fs from 'node:fs';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { listOf, ok } from '../../http/envelope.ts';
import { commitNoContent } from '../../http/no-content.ts';
import { claimIdempotencyKey, sendStoredResponse } from '../../http/idempotency.ts';
import { pageRequest } from '../../http/pagination.ts';
import { commitWrite } from '../../http/unit-of-work.ts';
import { Envelope, errorResponses, IdParams, ListEnvelope } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { TaskKeyParams } from '../tasks/task.schemas.ts';
import { writableTask } from '../tasks/task.service.ts';
import { callerOf } from '../tasks/task.http.ts';
import { removedOnFailure, removeStoredFiles } from './attachment.files.ts';
import { Attachment, AttachmentListQuery, AttachmentUploadBody } from './attachment.schemas.ts';
import * as attachments from './attachment.service.ts';
import { notMultipart, receiveUpload } from './attachment.upload.ts';
import { contentDisposition } from './filename.ts';

export const attachmentModels = [Attachment];

const IfNoneMatchHeaders = Type.Object({
  'if-none-match': Type.Optional(
    Type.String({ description: "The content's ETag from an earlier download: answered 304 when unchanged." }),
  ),
});

const tags = ['Attachments'];
const one = () => Envelope(Type.Ref(Attachment));
const read = { scope: 'tasks:read' } as const;
const write = { scope: 'tasks:write' } as const;

export function registerAttachmentRoutes(app: Api, ctx: AppContext): void {
  app.get(
    '/api/v1/tasks/:task_key/attachments/',
    {
      schema: {
        tags,
        summary: "A task's attachments (oldest first by default)",
        params: TaskKeyParams,
        querystring: AttachmentListQuery,
        response: { 200: ListEnvelope(Type.Ref(Attachment)), ...errorResponses(404) },
      },
      config: read,
    },
    async (request) =>
      listOf(
        await attachments.listAttachments(
          ctx,
          principalOf(request),
          request.params.task_key,
          pageRequest(request.query),
        ),
      ),
  );

  // Multipart parsing exists only in this scope: every other route keeps accepting JSON alone.
  app.register(async (plain) => registerUploadRoute(plain.withTypeProvider<TypeBoxTypeProvider>(), ctx));

  app.get(
    '/api/v1/attachments/:id/',
    {
      schema: {
        tags,
        summary: "Read an attachment's metadata",
        params: IdParams,
        response: { 200: one(), ...errorResponses(404) },
      },
      config: read,
    },
    async (request) => ok(await attachments.getAttachment(ctx, principalOf(request), request.params.id)),
  );

  registerDownloadRoute(app, ctx);

  app.delete(
    '/api/v1/attachments/:id/',
    {
      schema: {
        tags,
        summary: 'Delete an attachment and its file (the uploader, or a project admin)',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404) },
      },
      config: write,
    },
    async (request, reply) =>
      commitNoContent(ctx, reply, (tx) => attachments.deleteAttachment(tx, principalOf(request), request.params.id)),
  );
}

/** The upload, in a scope of its own where multipart/form-data is the only accepted body. */
async function registerUploadRoute(scope: Api, ctx: AppContext): Promise<void> {
  const maxBytes = ctx.config.attachments.maxBytes;
  scope.removeAllContentTypeParsers();
  await scope.register(multipart);
  scope.addContentTypeParser('*', (_request, _payload, done) => done(notMultipart(), undefined));

  scope.post(
    '/api/v1/tasks/:task_key/attachments/',
    {
      schema: {
        tags,
        summary: 'Upload a file to a task (multipart/form-data, one part named `file`)',
        description: [
          `Exactly one file, in a part named \`file\`, at most ${maxBytes} bytes (413 PAYLOAD_TOO_LARGE beyond, and nothing is kept).`,
          'Another field, a second file or no file is a 400; a body that is not multipart/form-data is a 415.',
          "The part's `filename` is kept, cleaned, for display; the file is stored under a server-generated name.",
          "`content_type` is the part's Content-Type; `size` and `sha256` are computed from the bytes received.",
          'Idempotency-Key: the request compared for a replay is the method, the path and the file (name, Content-Type, size and SHA-256), so the same upload retried with the key returns the stored response, and a different file with the same key is a 409 CONFLICT. The key is claimed once the file has been received, so answers given before that (400, 403, 404, 413, 415) are not stored.',
        ].join('\n\n'),
        params: TaskKeyParams,
        response: { 201: one(), ...errorResponses(404, 409, 413, 415) },
      },
      config: { ...write, idempotencyClaimedByHandler: true, multipartBody: AttachmentUploadBody },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      // Visibility and role first, so nothing is read from a caller who may not upload here.
      const task = await writableTask(ctx, principal, request.params.task_key);
      const upload = await receiveUpload(ctx, request);
      const stored = await removedOnFailure(ctx, upload.file, () =>
        claimIdempotencyKey(ctx, request, { file: upload.identity }),
      );
      if (stored) {
        // A retry of an upload already recorded: this copy of the bytes is not needed.
        await removeStoredFiles(ctx, [upload.file.storageName]);
        return sendStoredResponse(ctx, reply, stored);
      }
      reply.code(201);
      // The file is written already: a transaction that does not commit takes it along.
      return removedOnFailure(ctx, upload.file, () =>
        commitWrite(
          ctx,
          request,
          reply,
          (tx) => attachments.recordUpload(tx, callerOf(request), task, upload),
          ok<attachments.AttachmentJson>,
        ),
      );
    },
  );
}

/** The file's bytes, with its recorded type and an ETag for conditional downloads. */
function registerDownloadRoute(app: Api, ctx: AppContext): void {
  app.get(
    '/api/v1/attachments/:id/content/',
    {
      schema: {
        tags,
        summary: "Download an attachment's bytes",
        description:
          'Answered with the recorded Content-Type, Content-Length, `Content-Disposition: attachment` (the name in `filename*=UTF-8\'\'…`, RFC 8187), `X-Content-Type-Options: nosniff` and `ETag: "<sha256>"`; `If-None-Match` with that tag answers 304.',
        params: IdParams,
        headers: IfNoneMatchHeaders,
        response: {
          200: {
            description:
              "The file, byte for byte as uploaded, with the Content-Type recorded at upload (any media type, e.g. `text/plain` or `application/pdf`; see the attachment's `content_type`).",
            content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
            headers: {
              ETag: { type: 'string', description: 'The SHA-256 of the content, quoted.' },
              'Content-Disposition': { type: 'string' },
            },
          },
          304: { description: 'Not modified (If-None-Match matched the ETag).', type: 'null' },
          ...errorResponses(404),
        },
      },
      config: read,
    },
    async (request, reply) => {
      const content = await attachments.attachmentContent(ctx, principalOf(request), request.params.id);
      const etag = `"${content.sha256}"`;
      reply.header('etag', etag);
      const ifNoneMatch = request.headers['if-none-match'];
      if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => ['*', etag].includes(tag.trim().replace(/^W\//, '')))) {
        return reply.code(304).send();
      }
      // Opened before any header is sent, so a missing file is a clean 500 rather than a cut-off body.
      const handle = await fs.promises.open(content.path, 'r');
      return reply
        .type(content.contentType)
        .header('content-length', content.size)
        .header('content-disposition', contentDisposition(content.filename))
        .header('x-content-type-options', 'nosniff')
        .send(handle.createReadStream());
    },
  );
}
