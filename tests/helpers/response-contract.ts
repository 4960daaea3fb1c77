import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

// ajv-formats is CommonJS with a default export; NodeNext sees the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, unknown>;
interface ResponseObject {
  content?: Record<string, { schema?: unknown }>;
}
interface Document {
  paths: Record<string, Record<string, { responses: Record<string, ResponseObject> }>>;
}

const DOCUMENT_ID = 'openapi.json';

/** One compiled validator per document and schema location, shared by every app of a test file. */
const validators = new WeakMap<Document, { ajv: Ajv2020; compiled: Map<string, ValidateFunction> }>();

function validatorFor(document: Document, pointer: string): ValidateFunction {
  let entry = validators.get(document);
  if (!entry) {
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, validateSchema: false }));
    ajv.addFormat('binary', true);
    ajv.addSchema({ ...(document as unknown as Json), $id: DOCUMENT_ID }, DOCUMENT_ID);
    entry = { ajv, compiled: new Map() };
    validators.set(document, entry);
  }
  let validate = entry.compiled.get(pointer);
  if (!validate) {
    validate = entry.ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
    entry.compiled.set(pointer, validate);
  }
  return validate;
}

const escapePointer = (part: string): string => part.replace(/~/g, '~0').replace(/\//g, '~1');

/** `/api/v1/tasks/:task_key/` -> `/api/v1/tasks/{task_key}/`. */
const openApiPath = (routeUrl: string): string => routeUrl.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const mediaType = (contentType: unknown): string =>
  String(contentType ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();

/**
 * Checks one answer of a published operation against the document: the status is declared, the
 * content type is one the response declares, and a JSON body matches its schema.
 */
export function contractViolation(
  document: Document,
  method: string,
  routeUrl: string,
  status: number,
  contentType: unknown,
  text: string,
): string | null {
  const path = openApiPath(routeUrl);
  const operation = document.paths[path]?.[method.toLowerCase()];
  if (!operation) return null; // console, static and health routes are not published
  const where = `${method} ${path} answered ${status}`;
  const response = operation.responses[String(status)];
  if (!response)
    return `${where}, a status the OpenAPI document does not declare (declared: ${Object.keys(operation.responses).join(', ')})`;
  const declared = Object.keys(response.content ?? {});
  if (declared.length === 0) {
    return text === '' ? null : `${where} with a body, but the document declares none`;
  }
  const type = mediaType(contentType);
  const match = declared.find((candidate) => candidate === type || candidate === '*/*');
  if (!match) return `${where} with Content-Type "${type}", but the document declares ${declared.join(', ')}`;
  if (match !== 'application/json') return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${where} with a body that is not JSON`;
  }
  const pointer = ['paths', path, method.toLowerCase(), 'responses', String(status), 'content', match, 'schema']
    .map(escapePointer)
    .join('/');
  const validate = validatorFor(document, `/${pointer}`);
  if (validate(body)) return null;
  const problems = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(root)'} ${e.message}`);
  return `${where} with a body the document's schema refuses: ${problems.join('; ')}\n${text.slice(0, 500)}`;
}

/** The published document, as committed (tests/api/openapi.test.ts keeps it equal to the routes). */
let published: Document | undefined;
const publishedDocument = (): Document =>
  (published ??= JSON.parse(fs.readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')) as Document);

/**
 * Makes every answer a test receives through `app.inject` a check of the published document:
 * an answer of a published operation that the document does not describe (status, content
 * type or body) rejects the inject call, so the test that provoked it fails. Routes a test adds
 * itself, and unpublished ones (console, docs, health), are not in the document and not checked.
 * Call before `app.ready()`.
 */
export function enforceResponseContract(app: FastifyInstance): void {
  const routes = new WeakMap<IncomingMessage, string>();
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.routeOptions.url) routes.set(request.raw, request.routeOptions.url);
    return payload;
  });

  type Answer = { raw: { req: IncomingMessage }; statusCode: number; headers: Record<string, unknown>; body: string };
  const original = app.inject.bind(app) as unknown as (...args: unknown[]) => unknown;
  const checked = async (options: unknown) => {
    const response = (await original(options)) as Answer;
    const route = routes.get(response.raw.req);
    const method = response.raw.req.method ?? 'GET';
    if (route && method !== 'HEAD') {
      const violation = contractViolation(
        publishedDocument(),
        method,
        route,
        response.statusCode,
        response.headers['content-type'],
        response.body,
      );
      if (violation) throw new Error(`Response contract: ${violation}`);
    }
    return response;
  };
  // The tests use the promise form, app.inject(options); the chained and callback forms pass through unchecked.
  app.inject = ((options?: unknown, callback?: unknown) =>
    options === undefined || callback !== undefined
      ? original(options, callback)
      : checked(options)) as typeof app.inject;
}
