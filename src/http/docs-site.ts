import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Where `npm run build:docs` writes the manual's pages (scripts/docs/site.ts). */
export const DOCS_SITE_DIST = fileURLToPath(new URL('../../dist/docs-site/', import.meta.url));

/** The manual's pages are HTML and CSS only: no script runs, nothing is fetched from elsewhere. */
const DOCS_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Serves the manual at /docs/ (the API reference, Swagger UI, is beside it at /docs/reference/).
 * Only the files the build wrote are routes (wildcard off), so no other path reaches the disk.
 */
export async function registerDocsSite(app: FastifyInstance, dist = DOCS_SITE_DIST): Promise<void> {
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    app.get('/docs', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/docs/', 301));
    app.get('/docs/', { schema: { hide: true } }, async (_request, reply) =>
      reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send(
          'The manual is not built: run `npm run build:docs` (npm install and npm start do it). The API reference is at /docs/reference/.\n',
        ),
    );
    return;
  }
  await app.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root: dist,
      prefix: '/docs/',
      wildcard: false,
      index: ['index.html'],
      // A page asked for without its trailing slash (/docs, /docs/api/errors) is redirected to it.
      redirect: true,
      decorateReply: false,
      setHeaders: (reply) => {
        reply.header('content-security-policy', DOCS_CSP);
        reply.header('x-frame-options', 'DENY');
        reply.header('cache-control', 'no-cache');
      },
    });
  });
}
