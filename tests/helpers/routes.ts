import type { FastifyInstance } from 'fastify';

/**
 * Every route the app registered, as `METHOD /path` (HEAD left out: Fastify adds it to each
 * GET), read from Fastify's route tree (`printRoutes`), so tests can hold a table of routes
 * against what is really served and a new route cannot go unlisted.
 */
export function registeredRoutes(app: FastifyInstance): string[] {
  const found: string[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const node = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([^)]*)\))?$/.exec(line);
    if (!node) continue;
    const depth = node[1]!.length / 4;
    const path = (depth === 0 ? '' : prefixes[depth - 1]!) + node[2]!;
    prefixes[depth] = path;
    for (const method of (node[3] ?? '').split(',').map((m) => m.trim()))
      if (method && method !== 'HEAD') found.push(`${method} ${path}`);
  }
  return [...new Set(found)].sort();
}
