import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { exportLines, listAudit } from './audit.service.ts';
import * as schemas from './audit.schemas.ts';

/**
 * The organization audit log in the console (docs/operating/audit.md): read and export only.
 * There is no route that changes or deletes a record.
 */
export function registerAuditRoutes(app: Api, ctx: AppContext): void {
  app.get(
    '/api/console/audit/',
    {
      schema: {
        hide: true,
        querystring: schemas.AuditListQuery,
        response: { 200: schemas.AuditPage, ...errorResponses() },
      },
      config: { console: true },
    },
    async (request) => ({ success: true as const, ...(await listAudit(ctx, principalOf(request), request.query)) }),
  );

  app.get(
    '/api/console/audit/export/',
    {
      schema: {
        hide: true,
        querystring: schemas.AuditExportQuery,
        response: { 200: Type.String({ description: 'CSV or JSON lines.' }), ...errorResponses() },
      },
      config: { console: true },
    },
    async (request, reply) => {
      const { format, ...filters } = request.query;
      const principal = principalOf(request);
      const lines = exportLines(ctx, principal, filters, format);
      const day = ctx.clock.nowIso().slice(0, 10);
      return (
        reply
          .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/jsonl; charset=utf-8')
          .header('content-disposition', `attachment; filename="audit-${principal.organizationSlug}-${day}.${format}"`)
          // A stream is sent as it is read; the 200 schema describes it, nothing serializes it.
          .send(Readable.from(lines) as never)
      );
    },
  );
}
