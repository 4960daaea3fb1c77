import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { ok } from '../../http/envelope.ts';
import { Envelope, errorResponses } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { commitWrite } from '../../http/unit-of-work.ts';
import { Me, MePatchBody } from './me.schemas.ts';
import { describeMe, updateMe } from './me.service.ts';

export const meModels = [Me];

export function registerMeRoutes(app: Api, ctx: AppContext): void {
  app.get(
    '/api/v1/me/',
    {
      schema: {
        tags: ['Access'],
        summary: 'Who the token is: account, organization, effective scopes, restriction, visible projects',
        response: { 200: Envelope(Type.Ref(Me)), ...errorResponses() },
      },
      config: { scope: 'authenticated' },
    },
    async (request) => ok(await describeMe(ctx, principalOf(request))),
  );

  app.patch(
    '/api/v1/me/',
    {
      schema: {
        tags: ['Access'],
        summary: "Change the caller's own account: its handle",
        description:
          'Any account may change its own handle (no scope needed). 400 VALIDATION_ERROR when it does not match `^[a-z0-9][a-z0-9_-]{0,29}$`; 409 ALREADY_EXISTS (`details.field: "handle"`) when another account of the organization holds it.',
        body: MePatchBody,
        response: { 200: Envelope(Type.Ref(Me)), ...errorResponses(409) },
      },
      config: { scope: 'authenticated' },
    },
    async (request, reply) =>
      commitWrite(ctx, request, reply, (tx) => updateMe(tx, principalOf(request), request.body), ok),
  );
}
