import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Where `npm run build:web` writes the web app (see docs/getting-started.md). */
export const WEB_DIST = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/** Paths the server answers itself: an unknown one there is a 404, never the web app's page. */
const SERVER_PATHS = /^\/(?:api|docs|metrics|healthz|readyz)(?:\/|$)/;

/**
 * The app's page runs only its own bundled scripts; inline style attributes are what React,
 * dnd-kit and the virtualizer set while dragging and scrolling.
 */
const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Serves the built web app at `/`: its hashed assets cached for good, and its page for every
 * other GET outside the server's own paths, so a reload of `/p/WEB/board` opens that screen.
 */
export async function registerWebApp(app: FastifyInstance, dist = WEB_DIST): Promise<void> {
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    app.get('/', { schema: { hide: true } }, async (_request, reply) =>
      reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built: run `npm run build:web` (npm install and npm start do it).\n'),
    );
    return;
  }
  await app.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      setHeaders: (reply, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`))
          reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
    const page = async (request: FastifyRequest, reply: FastifyReply) => {
      const pathname = request.url.split('?')[0]!;
      // A missing asset (anything with an extension) is a plain 404, not a page that fails to parse as script.
      if (SERVER_PATHS.test(pathname) || /\.[A-Za-z0-9]+$/.test(pathname)) return reply.callNotFound();
      reply.header('content-security-policy', PAGE_CSP).header('x-frame-options', 'DENY');
      return reply.sendFile('index.html', { maxAge: 0, cacheControl: false, lastModified: false, etag: false });
    };
    scope.get('/', { schema: { hide: true } }, page);
    scope.get('/*', { schema: { hide: true } }, page);
  });
}
