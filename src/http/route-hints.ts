import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { FastifyInstance } from 'fastify';

export type RouteHint = { kind: 'slash'; path: string } | { kind: 'method'; allow: string[] };

/**
 * Explains a request that matched no route: every path of the API ends with a slash, so a
 * path without it that exists with one is named; a path that exists with other methods lists
 * them. A second router (the one Fastify itself uses) holds every route, so both questions are
 * answered by the same matching rules as the real routing. Call before routes are added.
 */
export function routeHints(app: FastifyInstance): (method: string, url: string) => RouteHint | null {
  const router = FindMyWay({ ignoreTrailingSlash: false, maxParamLength: 200 });
  const methods = new Set<string>();
  app.addHook('onRoute', (route) => {
    // The web app's page route (`/*`) matches every path and calls notFound itself for the
    // server's paths; holding it here would turn every miss into a hint.
    if (route.url.endsWith('*')) return;
    for (const method of [route.method].flat()) {
      methods.add(method);
      router.on(method as HTTPMethod, route.url, () => undefined);
    }
  });

  return (method, url) => {
    const path = url.split('?')[0] ?? '';
    if (!path.endsWith('/') && router.find(method as HTTPMethod, `${path}/`))
      return { kind: 'slash', path: `${path}/` };
    const allow = [...methods].filter((other) => other !== method && router.find(other as HTTPMethod, path));
    return allow.length ? { kind: 'method', allow: allow.sort() } : null;
  };
}
