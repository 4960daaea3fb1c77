import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { ok } from '../../http/envelope.ts';
import { Envelope, errorResponses } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { ProjectKeyParams } from '../projects/projects.schemas.ts';
import { type CsvKind, type CsvReport, toCsv } from './reports.csv.ts';
import {
  Burndown,
  BurndownQuery,
  CycleTime,
  Flow,
  FlowQuery,
  RangeQuery,
  Velocity,
  VelocityQuery,
} from './reports.schemas.ts';
import * as reports from './reports.service.ts';

export const reportModels = [Burndown, Flow, CycleTime, Velocity];

const tags = ['Reports'];
const read = { scope: 'tasks:read' } as const;

/** JSON, or the report's table as CSV for `?format=csv` or `Accept: text/csv`. */
function answered(model: TSchema, description: string) {
  return {
    200: {
      description,
      content: {
        'application/json': { schema: Envelope(Type.Ref(model)) },
        'text/csv': { schema: Type.String({ description: "The report's table, one row per line, with a header." }) },
      },
    },
    ...errorResponses(404),
  };
}

function wantsCsv(format: string | undefined, accept: string | undefined): boolean {
  if (format !== undefined) return format === 'csv';
  return (accept ?? '').split(',').some((type) => type.trim().split(';')[0] === 'text/csv');
}

function send(request: FastifyRequest, reply: FastifyReply, kind: CsvKind, report: CsvReport) {
  const { format } = request.query as { format?: string };
  if (!wantsCsv(format, request.headers.accept)) return reply.type('application/json; charset=utf-8').send(ok(report));
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${kind}.csv"`)
    .send(toCsv(kind, report));
}

const AS_OF =
  "Computed from the tasks' activity history, so it is correct for periods before estimates existed (an estimate counts from when it was set); `as_of` shows it as it stood then. Days are UTC days. For people who may see the project (404 otherwise).";

export function registerReportRoutes(app: Api, ctx: AppContext): void {
  app.get(
    '/api/v1/projects/:project_key/reports/burndown/',
    {
      schema: {
        tags,
        summary: 'Burndown: remaining estimate and tasks per day, scope added and removed, the ideal line',
        description: `For a sprint (its tasks, from its start date to its end date) or, without one, every task of the project from \`from\` to \`to\`. ${AS_OF}`,
        params: ProjectKeyParams,
        querystring: BurndownQuery,
        response: answered(Burndown, 'The burndown.'),
      },
      config: read,
    },
    async (request, reply) =>
      send(
        request,
        reply,
        'burndown',
        await reports.burndown(ctx, principalOf(request), request.params.project_key, request.query),
      ),
  );

  app.get(
    '/api/v1/projects/:project_key/reports/flow/',
    {
      schema: {
        tags,
        summary: 'Cumulative flow: tasks per status per day, and the time each task spent in each status',
        description: `Each status under its name now, so a rename within the range does not split it. The tasks' time in each status comes a page at a time (\`limit\`, \`cursor\`); CSV is the days' table. ${AS_OF}`,
        params: ProjectKeyParams,
        querystring: FlowQuery,
        response: answered(Flow, 'The flow.'),
      },
      config: read,
    },
    async (request, reply) =>
      send(
        request,
        reply,
        'flow',
        await reports.flow(ctx, principalOf(request), request.params.project_key, request.query),
      ),
  );

  app.get(
    '/api/v1/projects/:project_key/reports/cycle-time/',
    {
      schema: {
        tags,
        summary: 'Cycle and lead time percentiles per task type, throughput per week',
        description: `A task counts when its last move into a \`done\` status falls in the range and it is still done at its end. Cycle time runs from its first move into an \`in_progress\` status, lead time from its creation. ${AS_OF}`,
        params: ProjectKeyParams,
        querystring: RangeQuery,
        response: answered(CycleTime, 'Cycle and lead times.'),
      },
      config: read,
    },
    async (request, reply) =>
      send(
        request,
        reply,
        'cycle-time',
        await reports.cycleTime(ctx, principalOf(request), request.params.project_key, request.query),
      ),
  );

  app.get(
    '/api/v1/projects/:project_key/reports/velocity/',
    {
      schema: {
        tags,
        summary: 'Velocity: committed and completed estimate per completed sprint',
        description: `Completed sprints with both dates, ended by \`as_of\`: the estimate of their tasks when the first day started, and of those done at the end of the last day. ${AS_OF}`,
        params: ProjectKeyParams,
        querystring: VelocityQuery,
        response: answered(Velocity, 'The velocity.'),
      },
      config: read,
    },
    async (request, reply) =>
      send(
        request,
        reply,
        'velocity',
        await reports.velocity(ctx, principalOf(request), request.params.project_key, request.query),
      ),
  );
}
