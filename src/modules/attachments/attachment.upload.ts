import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { ApiError, invalid } from '../../http/errors.ts';
import { removeStoredFiles, type StoredFile, storeStream } from './attachment.files.ts';
import type { ReceivedUpload } from './attachment.service.ts';
import { isMediaType, sanitizeFilename } from './filename.ts';

/**
 * Reads a multipart/form-data upload: exactly one file, in a part named `file`, and nothing
 * else. The file streams straight to storage (hashed and counted on the way, never buffered
 * whole); on any refusal the partial file is removed before the error is answered.
 */
export const FILE_FIELD = 'file';

/** What the client sent, as compared for Idempotency-Key replays (the file by its digest). */
export interface UploadIdentity {
  filename: string | null;
  content_type: string;
  size: number;
  sha256: string;
}

export interface Upload extends ReceivedUpload {
  identity: UploadIdentity;
}

function multipartLimits(ctx: AppContext) {
  return {
    fileSize: ctx.config.attachments.maxBytes,
    // A second file is refused by the parser before any of its bytes are read.
    files: 1,
    fields: 10,
    fieldSize: 1024,
    parts: 20,
    headerPairs: 50,
  };
}

function tooLarge(ctx: AppContext): ApiError {
  const max = ctx.config.attachments.maxBytes;
  return new ApiError('PAYLOAD_TOO_LARGE', `The file exceeds the ${max}-byte upload limit.`, { max_bytes: max });
}

/** @fastify/multipart and busboy errors, in this API's terms. */
function uploadError(ctx: AppContext, error: unknown): unknown {
  if (error instanceof ApiError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(ctx);
  if (code === 'FST_FILES_LIMIT') return invalid({ [FILE_FIELD]: 'send exactly one file per upload' });
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
    return invalid({ body: 'too many form fields; send only the file part' });
  if (code === 'FST_PROTO_VIOLATION') return invalid({ body: 'forbidden form field name' });
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return notMultipart();
  // A failing disk (ENOSPC, EACCES...) is the server's fault: it stays a 500.
  if ((error as NodeJS.ErrnoException).syscall) return error;
  // What remains comes from parsing the client's bytes (premature end, malformed part headers...).
  if (error instanceof Error) {
    return invalid(
      { body: `malformed multipart/form-data (${error.message})` },
      'The multipart body could not be read.',
    );
  }
  return error;
}

export function notMultipart(): ApiError {
  return new ApiError(
    'UNSUPPORTED_MEDIA_TYPE',
    `Upload the file as multipart/form-data with one part named "${FILE_FIELD}".`,
  );
}

/**
 * What a valid upload may add around its file: part headers, boundaries and the few small fields
 * the limits allow. A declared body larger than the cap plus this cannot hold an acceptable file.
 */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export async function receiveUpload(ctx: AppContext, request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) throw notMultipart();
  // Refused from the header alone, so a client sending far too much learns it before uploading it all.
  const declared = Number(request.headers['content-length']);
  if (declared > ctx.config.attachments.maxBytes + MULTIPART_OVERHEAD_BYTES) throw tooLarge(ctx);
  let stored: StoredFile | undefined;
  let identity: Omit<UploadIdentity, 'size' | 'sha256'> | undefined;
  const problems: Record<string, string> = {};
  try {
    for await (const part of request.parts({ limits: multipartLimits(ctx) })) {
      if (part.type === 'field') {
        problems[part.fieldname] = `is not a known field; send only the "${FILE_FIELD}" part`;
        continue;
      }
      if (part.fieldname !== FILE_FIELD) {
        part.file.resume();
        problems[part.fieldname] = `is not a known field; name the file part "${FILE_FIELD}"`;
        continue;
      }
      stored = await storeStream(ctx, part.file);
      // busboy stops at the limit and marks the stream truncated rather than failing it.
      if (part.file.truncated) throw tooLarge(ctx);
      identity = { filename: part.filename ?? null, content_type: part.mimetype };
    }
  } catch (error) {
    if (stored) await removeStoredFiles(ctx, [stored.storageName]);
    throw uploadError(ctx, error);
  }

  if (!stored || !identity) problems[FILE_FIELD] ??= 'is required: one file part named "file"';
  else if (!isMediaType(identity.content_type))
    problems[FILE_FIELD] = `has an invalid Content-Type "${identity.content_type}"`;
  if (Object.keys(problems).length) {
    if (stored) await removeStoredFiles(ctx, [stored.storageName]);
    throw invalid(problems);
  }
  return {
    file: stored!,
    filename: sanitizeFilename(identity!.filename ?? undefined),
    contentType: identity!.content_type,
    identity: { ...identity!, size: stored!.size, sha256: stored!.sha256 },
  };
}
