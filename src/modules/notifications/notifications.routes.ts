import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { listOf, ok } from '../../http/envelope.ts';
import { pageRequest } from '../../http/pagination.ts';
import { Envelope, errorResponses, ListEnvelope } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { commitWrite } from '../../http/unit-of-work.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import {
  Notification,
  NotificationListQuery,
  NotificationPreferences,
  NotificationPreferencesPatch,
  NotificationReadBody,
  NotificationReadResult,
} from './notifications.schemas.ts';
import {
  checkUnsubscribeLink,
  getPreferences,
  listNotifications,
  markNotificationsRead,
  unsubscribe,
  updatePreferences,
} from './notifications.service.ts';
import { REASONS } from './reasons.ts';

export const notificationModels = [Notification, NotificationPreferences];

const tags = ['Notifications'];
// The caller's own account, like GET /me/: no scope needed.
const own = { scope: 'authenticated' } as const;

export function registerNotificationRoutes(app: Api, ctx: AppContext): void {
  app.get(
    '/api/v1/me/notifications/',
    {
      schema: {
        tags,
        summary: "The caller's notifications, newest first",
        description:
          'A token restricted to projects sees only the notifications about tasks of those projects, and those about no task. `reason` takes one reason or a comma-separated list.',
        querystring: NotificationListQuery,
        response: { 200: ListEnvelope(Type.Ref(Notification)), ...errorResponses() },
      },
      config: own,
    },
    async (request) => {
      const { unread, reason, ...paging } = request.query;
      return listOf(await listNotifications(ctx, principalOf(request), { unread, reason }, pageRequest(paging)));
    },
  );

  app.post(
    '/api/v1/me/notifications/read/',
    {
      schema: {
        tags,
        summary: 'Mark notifications read: some by id, or all',
        body: NotificationReadBody,
        response: { 200: Envelope(NotificationReadResult), ...errorResponses() },
      },
      config: own,
    },
    async (request, reply) =>
      commitWrite(ctx, request, reply, (tx) => markNotificationsRead(tx, principalOf(request), request.body), ok),
  );

  app.get(
    '/api/v1/me/notification-preferences/',
    {
      schema: {
        tags,
        summary: 'How the caller is told, per reason: in the app, by e-mail, both or neither',
        response: { 200: Envelope(Type.Ref(NotificationPreferences)), ...errorResponses() },
      },
      config: own,
    },
    async (request) => ok(await getPreferences(ctx, principalOf(request))),
  );

  app.patch(
    '/api/v1/me/notification-preferences/',
    {
      schema: {
        tags,
        summary: 'Change how the caller is told, naming only the reasons (and channels) that change',
        body: NotificationPreferencesPatch,
        response: { 200: Envelope(Type.Ref(NotificationPreferences)), ...errorResponses() },
      },
      config: own,
    },
    async (request, reply) =>
      commitWrite(ctx, request, reply, (tx) => updatePreferences(tx, principalOf(request), request.body), ok),
  );
}

const UnsubscribeQuery = Type.Object({
  user: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  reason: Type.Union(REASONS.map((reason) => Type.Literal(reason))),
  token: Type.String({ minLength: 1, maxLength: 100 }),
});

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

/**
 * The unsubscribe link of notification e-mails, which works without signing in: GET shows a
 * button (a link opened by a mail scanner changes nothing), POST turns e-mail off for the
 * reason, and is also what mail clients send for one-click unsubscribe (RFC 8058).
 */
export function registerUnsubscribeRoutes(app: Api, ctx: AppContext): void {
  const html = { 200: { description: 'An HTML page', content: { 'text/html': { schema: Type.String() } } } };
  app.get(
    '/api/v1/notifications/unsubscribe/',
    { schema: { hide: true, querystring: UnsubscribeQuery, response: { ...html, ...errorResponses(404) } } },
    async (request, reply) => {
      const { user, reason, token } = request.query;
      await checkUnsubscribeLink(ctx, user, reason, token);
      const action = `?user=${user}&amp;reason=${reason}&amp;token=${encodeURIComponent(token)}`;
      return reply
        .type('text/html; charset=utf-8')
        .send(
          page(
            'Stop these e-mails?',
            `<p>You will no longer get e-mails about &ldquo;${reason}&rdquo; notifications. They still show in the app.</p><form method="post" action="${action}"><button type="submit">Stop these e-mails</button></form>`,
          ),
        );
    },
  );
  app.register(async (plugin) => {
    const scoped = plugin.withTypeProvider<TypeBoxTypeProvider>();
    // Mail clients post `List-Unsubscribe=One-Click` as a form; what it says changes nothing.
    scoped.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) =>
      done(null, {}),
    );
    scoped.post(
      '/api/v1/notifications/unsubscribe/',
      { schema: { hide: true, querystring: UnsubscribeQuery, response: { ...html, ...errorResponses(404) } } },
      async (request, reply) => {
        const { user, reason, token } = request.query;
        await inTransaction(ctx, (tx) => unsubscribe(tx, user, reason, token));
        return reply
          .type('text/html; charset=utf-8')
          .send(
            page('Unsubscribed', `<p>You will no longer get e-mails about &ldquo;${reason}&rdquo; notifications.</p>`),
          );
      },
    );
  });
}
