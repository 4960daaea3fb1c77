import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { ApiError } from '../../http/errors.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { LiveHub } from './live-hub.ts';
import { currentPosition, isKnownPosition } from './live.repository.ts';
import { type LivePosition, parsePosition } from './position.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** GET /api/console/live/: the live stream of a signed-in person (docs/api/live-updates.md). */
export function registerLiveRoutes(app: Api, ctx: AppContext): void {
  const hub = new LiveHub(ctx, app.log);
  // Streams never finish by themselves: they end as draining starts (browsers reconnect to
  // another process and resume), so the drain waits only for ordinary requests.
  app.onDrain(() => hub.close());
  app.addHook('preClose', () => hub.close());
  // A write answered by this process has committed: its streams need not wait for the next poll.
  app.addHook('onResponse', async (request) => {
    if (!READS.has(request.method)) hub.poke();
  });

  app.get(
    '/api/console/live/',
    {
      schema: {
        hide: true,
        headers: Type.Object({
          'last-event-id': Type.Optional(
            Type.String({
              maxLength: 64,
              description: 'The id of the last event received; the stream resumes after it.',
            }),
          ),
        }),
        response: {
          200: {
            description: 'text/event-stream of `change` events',
            content: { 'text/event-stream': { schema: Type.String() } },
          },
          ...errorResponses(),
        },
      },
      config: { console: true },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const resume = request.headers['last-event-id'];
      let after: LivePosition | null;
      if (resume === undefined) after = await currentPosition(ctx.db, ctx.dialect);
      else {
        after = parsePosition(resume);
        if (after && !(await isKnownPosition(ctx.db, after))) after = null;
      }
      if (!after) {
        throw new ApiError('VALIDATION_ERROR', 'Last-Event-ID is not an id this stream sent.', {
          location: 'header',
          fields: { 'last-event-id': 'must be the id of an event of this stream' },
        });
      }
      // HEAD asks what GET would answer: the headers, and no stream to hold open.
      if (request.method === 'HEAD')
        return reply.code(200).header('content-type', 'text/event-stream; charset=utf-8').send('');
      hub.admit(principal);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(reply.getHeaders()))
        if (value !== undefined) headers[name] = String(value);
      reply.hijack();
      hub.open(reply.raw, principal, after, headers);
    },
  );
}
