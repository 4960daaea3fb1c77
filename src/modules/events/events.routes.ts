import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { SUBSCRIBABLE_EVENT_TYPES } from '../../events/catalog.ts';
import { ApiError, foundOr404, reflected } from '../../http/errors.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { tokenHashOf } from '../../identity/auth.service.ts';
import { findVisibleProjectRef } from '../../policy/visibility.repository.ts';
import { EventStreamHub } from './event-stream-hub.ts';
import { type EventPosition, positionOfEvent, startOfStream } from './events-stream.repository.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const EVENT_ID = /^evt_[0-9a-f]{32}$/;
const HOUR_MS = 3_600_000;

const DESCRIPTION = `The events webhooks carry, as Server-Sent Events, for a token: each event's
webhook envelope is the \`data\`, its type the SSE \`event\` and its id the SSE \`id\`
(docs/api/events-stream.md). The stream first sends \`ready\` (with the id of the event it starts
after, when there is one), then every event as it commits, in commit order, and a
\`: keep-alive\` comment every 15 seconds.

Only what the token sees: events of its organization, of projects it sees (both, for a link
across projects; events of no project only to tokens not restricted to projects), of types its
scopes read (\`tasks:read\` for task, comment, attachment and sprint events, \`projects:read\`
for project and membership events, \`standups:read\` for standup events). \`notification.created\`
goes only to tokens of the account notified, whatever their scopes, like GET /api/v1/me/notifications/.

**Resuming** without loss or duplicates: reconnect with \`Last-Event-ID\` (SSE clients send it
themselves) or \`?after=<event id>\`; the header wins when both are sent. The catch-up window is
\`WEBHOOK_RETENTION_DAYS\` (30 by default) less an hour: a resume point older than that, or no
longer held, is refused with \`410 EVENTS_EXPIRED\` (start again without one, and catch up from
the API). At most \`LIVE_MAX_STREAMS_PER_PERSON\` streams per account and
\`LIVE_MAX_STREAMS_PER_ORGANIZATION\` per organization at once in one process (429 beyond).`;

/** GET /api/v1/events/stream/: the event stream for tokens (docs/api/events-stream.md). */
export function registerEventRoutes(app: Api, ctx: AppContext): void {
  const hub = new EventStreamHub(ctx, app.log);
  app.onDrain(() => hub.close());
  app.addHook('preClose', async () => hub.close());
  // A write answered by this process has committed: its streams need not wait for the next poll.
  app.addHook('onResponse', async (request) => {
    if (!READS.has(request.method)) hub.poke();
  });

  app.get(
    '/api/v1/events/stream/',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Stream events as they happen (Server-Sent Events)',
        description: DESCRIPTION,
        querystring: Type.Object({
          types: Type.Optional(
            Type.String({
              maxLength: 2000,
              description: 'Comma-separated event types to keep (docs/api/webhooks.md); all when absent.',
            }),
          ),
          project: Type.Optional(
            Type.String({ maxLength: 10, description: 'A project key: only events of that project.' }),
          ),
          after: Type.Optional(
            Type.String({
              maxLength: 64,
              description: 'Resume after this event id (as `Last-Event-ID` does).',
              examples: ['evt_0f3c2b6a9d8e4f1a8b7c6d5e4f3a2b1c'],
            }),
          ),
        }),
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
            description: 'text/event-stream: `ready`, then one SSE event per event, named by its type',
            content: { 'text/event-stream': { schema: Type.String() } },
          },
          ...errorResponses(404, 410),
        },
      },
      config: { scope: 'authenticated' },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      if (principal.sessionId !== undefined)
        throw new ApiError('UNAUTHENTICATED', 'The event stream is for API tokens (Authorization: Bearer).');
      const { types: typeList, project: projectKey, after: afterParam } = request.query;
      let types: Set<string> | null = null;
      if (typeList !== undefined) {
        types = new Set(typeList.split(',').map((t) => t.trim()));
        const unknown = [...types].filter((t) => !SUBSCRIBABLE_EVENT_TYPES.includes(t));
        if (unknown.length || types.size === 0)
          throw new ApiError('VALIDATION_ERROR', 'Unknown event types.', {
            location: 'query',
            fields: { types: `unknown: ${unknown.map(reflected).join(', ')}` },
          });
      }
      const projectId =
        projectKey === undefined
          ? null
          : (await foundOr404(findVisibleProjectRef(ctx.db, principal, { key: projectKey }), 'Project')).id;

      const resume = request.headers['last-event-id'] ?? afterParam;
      let after: EventPosition;
      let readyId: string | null;
      if (resume === undefined) {
        const start = await startOfStream(ctx.db, ctx.dialect, principal.organizationId);
        after = start.position;
        readyId = start.eventId;
      } else {
        if (!EVENT_ID.test(resume))
          throw new ApiError('VALIDATION_ERROR', 'The resume point is not an event id.', {
            location: request.headers['last-event-id'] !== undefined ? 'header' : 'query',
            fields: {
              [request.headers['last-event-id'] !== undefined ? 'last-event-id' : 'after']:
                'must be an event id (evt_...)',
            },
          });
        const found = await positionOfEvent(ctx.db, principal.organizationId, resume);
        // Events are swept WEBHOOK_RETENTION_DAYS after they were sent: a resume point within an
        // hour of that could have later events swept before it, so it is refused rather than skip them.
        const window = ctx.config.webhooks.retentionDays * 24 * HOUR_MS - HOUR_MS;
        if (!found || Date.parse(found.occurredAt) < ctx.clock.nowMs() - window)
          throw new ApiError('EVENTS_EXPIRED', 'The resume point is older than the catch-up window of the stream.', {
            after: resume,
            window_hours: window / HOUR_MS,
          });
        after = { tx: found.tx, id: found.id };
        readyId = resume;
      }
      // HEAD asks what GET would answer: the headers, and no stream to hold open.
      if (request.method === 'HEAD')
        return reply.code(200).header('content-type', 'text/event-stream; charset=utf-8').send('');
      hub.admit(principal);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(reply.getHeaders()))
        if (value !== undefined) headers[name] = String(value);
      reply.hijack();
      await hub.open(
        reply.raw,
        { tokenHash: tokenHashOf(request.headers.authorization), principal, filter: { types, projectId }, after },
        headers,
        readyId,
      );
    },
  );
}
