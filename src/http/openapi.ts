import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { AppContext } from '../context.ts';
import { ERROR_CODES } from './errors.ts';
import { EVENT_SCHEMAS, WEBHOOKS } from '../modules/webhooks/event-schemas.ts';
import { finishDocument } from './openapi-finish.ts';
import { SERVICE_VERSION } from '../version.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Documents a multipart/form-data request body. Such a body is a stream that the handler
     * reads and checks itself, so it cannot be the route's `schema.body` (which Fastify would
     * validate against the not-yet-parsed body); it is added to the published document only.
     */
    multipartBody?: Record<string, unknown>;
    /** The JSON body may be left out entirely; @fastify/swagger marks every body required. */
    optionalBody?: boolean;
  }
}

const OPTIONAL_BODY = 'x-optional-body';

type Webhooks = NonNullable<Extract<FastifyDynamicSwaggerOptions['openapi'], { webhooks?: unknown }>['webhooks']>;

const RELATIVE_SERVER = { url: '/', description: 'The origin this document is served from.' };

/**
 * The document as served at /api/v1/openapi.json: without PUBLIC_BASE_URL its server is the
 * origin the request reached (behind a proxy, with TRUST_PROXY, the forwarded one).
 */
export function servedDocument(
  document: Record<string, unknown>,
  publicBaseUrl: string | null,
  origin: string,
): Record<string, unknown> {
  return publicBaseUrl ? document : { ...document, servers: [{ url: origin }] };
}

const errorTable = Object.entries(ERROR_CODES)
  .map(([code, { status, description }]) => `| ${code} | ${status} | ${description} |`)
  .join('\n');

const DESCRIPTION = `Self-hosted project and task tracking API.

Every request carries \`Authorization: Bearer <token>\`. Each operation names the scope it needs;
a write scope implies the read scope of the same area.

The web app calls the same operations as a signed-in person instead (\`cookieAuth\`: the
\`tt_session\` cookie, \`__Host-tt_session\` over HTTPS). A session has every scope; what the person
may see and do follows their workspace and project roles. A cookie-authenticated request that is
not GET, HEAD or OPTIONS must send the session's CSRF token in \`X-CSRF-Token\` and an \`Origin\`
equal to the service's own, or it is refused with 403 \`CSRF_FAILED\` and changes nothing.
Idempotency keys then belong to the session, and events it causes carry \`source: "app"\`.

Successful responses: \`{"success": true, "data": ..., "pagination": ...}\`.
Errors: \`{"success": false, "error": {"code", "message", "details"}}\`.

| code | HTTP | meaning |
|---|---|---|
${errorTable}
`;

/** OpenAPI 3.1 generated from the route schemas; each operation's scope comes from its route config. */
export function openApiOptions(ctx: AppContext): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'tasktracker API',
        version: SERVICE_VERSION,
        description: DESCRIPTION,
        contact: { name: 'The operators of this tasktracker service' },
        license: { name: 'MIT', identifier: 'MIT' },
      },
      // Without PUBLIC_BASE_URL the document names its own origin: relative in the committed
      // file, the requesting origin when served (see servedDocument).
      servers: [ctx.config.publicBaseUrl ? { url: ctx.config.publicBaseUrl.replace(/\/+$/, '') } : RELATIVE_SERVER],
      // What the service sends to webhook endpoints, one entry per event type (plain JSON, as
      // the document's other hand-written parts are in openapi-finish.ts).
      webhooks: WEBHOOKS as unknown as Webhooks,
      components: {
        schemas: EVENT_SCHEMAS,
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer' },
          webhookSignature: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Service-Signature',
            description:
              "How receivers authenticate a delivery: `sha256=` and the hex HMAC-SHA256 of `{X-Service-Timestamp}.{raw body}`, keyed with the endpoint's signing secret (`whsec_...`) as UTF-8. Verify over the raw bytes, in constant time.",
          },
          cookieAuth: {
            type: 'apiKey',
            in: 'cookie',
            name: 'tt_session',
            description:
              "A signed-in person's session (named `__Host-tt_session` over HTTPS). Writes also need the `X-CSRF-Token` header and a same-origin `Origin`.",
          },
        },
      },
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    transform: ({ schema: routeSchema, url, route }) => {
      const multipart = route.config?.multipartBody;
      const schema =
        multipart && routeSchema
          ? ({
              ...routeSchema,
              body: { content: { 'multipart/form-data': { schema: multipart } } },
            } as typeof routeSchema)
          : routeSchema;
      const scope = route.config?.scope;
      if (!scope || !schema) return { schema, url };
      const optionalBody = route.config?.optionalBody ? { [OPTIONAL_BODY]: true } : {};
      const note = scope === 'authenticated' ? 'Any valid token; no scope needed.' : `Scope: \`${scope}\`.`;
      return {
        url,
        schema: {
          ...schema,
          description: schema.description ? `${schema.description}\n\n${note}` : note,
          security: [{ bearerAuth: [] }, { cookieAuth: [] }],
          'x-required-scope': scope === 'authenticated' ? null : scope,
          ...optionalBody,
        } as unknown as typeof schema,
      };
    },
    transformObject: (documentObject) => {
      const document = 'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject;
      for (const operations of Object.values(document.paths ?? {})) {
        for (const operation of Object.values(operations as Record<string, Record<string, unknown>>)) {
          if (!operation[OPTIONAL_BODY]) continue;
          delete operation[OPTIONAL_BODY];
          (operation.requestBody as { required: boolean }).required = false;
        }
      }
      return finishDocument(document as unknown as Record<string, unknown>) as unknown as typeof document;
    },
  };
}
