import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/auth-hook.ts';
import { ok } from '../../http/envelope.ts';
import { Envelope, errorResponses } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { Me } from './me.schemas.ts';
import { describeMe } from './me.service.ts';

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
}
