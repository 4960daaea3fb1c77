import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/auth-hook.ts';
import { ApiError } from '../../http/errors.ts';
import { errorResponses } from '../../http/schemas.ts';
import { sessionTokenOf } from '../../http/session-auth.ts';
import type { Api } from '../../http/types.ts';
import { principalOfSession } from '../sessions/sessions.service.ts';
import { LiveHub } from './live-hub.ts';
import { currentPosition } from './live.repository.ts';
import { parsePosition } from './position.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** GET /api/console/live/: the live stream of a signed-in person (docs/api/live-updates.md). */
export function registerLiveRoutes(app: Api, ctx: AppContext): void {
  const hub = new LiveHub(ctx, app.log);
  // Streams end before the server waits for open connections to finish.
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
      const after = resume === undefined ? await currentPosition(ctx.db, ctx.dialect) : parsePosition(resume);
      if (!after) {
        throw new ApiError('VALIDATION_ERROR', 'Last-Event-ID is not an id this stream sent.', {
          location: 'header',
          fields: { 'last-event-id': 'must be the id of an event of this stream' },
        });
      }
      const sessionKey = `session:${principal.sessionId}`;
      const max = ctx.config.live.maxStreamsPerSession;
      if (hub.countFor(sessionKey) >= max) {
        throw new ApiError(
          'RATE_LIMITED',
          `At most ${max} live streams may be open at once for one session; close one first.`,
        );
      }
      // The console hook authenticated this request by its cookie, so the token is there.
      const token = sessionTokenOf(request)!;
      const reauthenticate = () =>
        principalOfSession(ctx, token, { touch: false }).then(
          ({ principal }) => principal,
          () => null,
        );
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(reply.getHeaders()))
        if (value !== undefined) headers[name] = String(value);
      reply.hijack();
      hub.open(reply.raw, { sessionKey, after, reauthenticate, headers });
    },
  );
}
