import { Type } from '@sinclair/typebox';
import { CursorPagination, DateString } from '../../http/schemas.ts';

const AsOf = Type.Optional(
  Type.String({
    format: 'date-time',
    description:
      'The report as it stood at this instant ("what did this look like last Monday"): later changes are left out. Default: now.',
  }),
);
const Format = Type.Optional(
  Type.Union([Type.Literal('json'), Type.Literal('csv')], {
    description: "`csv` answers the report's table as CSV (as does `Accept: text/csv`). Default: JSON.",
  }),
);
const From = Type.Union([DateString], { description: 'First day (UTC), inclusive.' });
const To = Type.Union([DateString], { description: 'Last day (UTC), inclusive; at most 366 days after `from`.' });
const Unit = Type.Union([Type.Literal('points'), Type.Literal('hours')], {
  description: "The project's estimate unit.",
});
const ReportAsOf = Type.String({ description: 'The instant the report describes (the `as_of` asked for, or now).' });

export const BurndownQuery = Type.Object({
  sprint: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: 'A sprint of the project: its tasks, from its start date to its end date.',
    }),
  ),
  from: Type.Optional(
    Type.Union([DateString], { description: 'First day; the sprint start by default. Required without `sprint`.' }),
  ),
  to: Type.Optional(
    Type.Union([DateString], { description: 'Last day; the sprint end by default. Required without `sprint`.' }),
  ),
  as_of: AsOf,
  format: Format,
});
export const RangeQuery = Type.Object({ from: From, to: To, as_of: AsOf, format: Format });
export const FlowQuery = Type.Object({
  from: From,
  to: To,
  as_of: AsOf,
  format: Format,
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 200, description: 'Tasks per page of `tasks`, default 50, maximum 200.' }),
  ),
  cursor: Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'The page of `tasks` after this one (`tasks_pagination.next_cursor`); empty or absent: the first.',
    }),
  ),
});
export const VelocityQuery = Type.Object({ as_of: AsOf, format: Format });

export const Burndown = Type.Object(
  {
    project: Type.String(),
    unit: Unit,
    sprint: Type.Union([
      Type.Object({
        id: Type.Integer(),
        name: Type.String(),
        start_date: Type.Union([Type.String(), Type.Null()]),
        end_date: Type.Union([Type.String(), Type.Null()]),
      }),
      Type.Null(),
    ]),
    from: Type.String(),
    to: Type.String(),
    as_of: ReportAsOf,
    days: Type.Array(
      Type.Object({
        date: Type.String(),
        remaining_estimate: Type.Number({
          description: "Estimate of the scope's tasks not done, at the end of the day.",
        }),
        remaining_tasks: Type.Integer(),
        added_tasks: Type.Integer({ description: 'Tasks that entered the scope during the day.' }),
        added_estimate: Type.Number(),
        removed_tasks: Type.Integer({ description: 'Tasks that left the scope during the day.' }),
        removed_estimate: Type.Number(),
        ideal_estimate: Type.Number({
          description: 'A straight line from the remaining estimate when the first day starts to 0 on the last day.',
        }),
      }),
      { description: 'One per day up to `to`, or up to the day of `as_of`.' },
    ),
  },
  { $id: 'BurndownReport', title: 'BurndownReport' },
);

const StatusColumn = Type.Object({
  name: Type.String(),
  category: Type.Union([Type.Literal('todo'), Type.Literal('in_progress'), Type.Literal('done'), Type.Null()], {
    description: 'null: a name of the history that no status of the project has (deleted since).',
  }),
});

export const Flow = Type.Object(
  {
    project: Type.String(),
    from: Type.String(),
    to: Type.String(),
    as_of: ReportAsOf,
    statuses: Type.Array(StatusColumn, { description: 'In board order, each under its name now.' }),
    days: Type.Array(
      Type.Object({
        date: Type.String(),
        counts: Type.Record(Type.String(), Type.Integer(), {
          description: 'Tasks in each status (by name) at the end of the day.',
        }),
      }),
    ),
    tasks: Type.Array(
      Type.Object({
        key: Type.String(),
        title: Type.String(),
        hours_in_status: Type.Record(Type.String(), Type.Number(), {
          description: 'Hours spent in each status within the range.',
        }),
      }),
      {
        description:
          'One page of the tasks that were not done throughout the range, in task order (`limit`, `cursor`); the days are whole on every page.',
      },
    ),
    tasks_pagination: Type.Ref(CursorPagination),
  },
  { $id: 'FlowReport', title: 'FlowReport' },
);

const Percentiles = Type.Object(
  {
    p50: Type.Union([Type.Number(), Type.Null()]),
    p85: Type.Union([Type.Number(), Type.Null()]),
    p95: Type.Union([Type.Number(), Type.Null()]),
  },
  { description: 'Hours, nearest-rank percentiles; null when nothing was measured.' },
);
const Summary = {
  completed: Type.Integer(),
  cycle_time_hours: Percentiles,
  lead_time_hours: Percentiles,
};

export const CycleTime = Type.Object(
  {
    project: Type.String(),
    from: Type.String(),
    to: Type.String(),
    as_of: ReportAsOf,
    overall: Type.Object(Summary),
    by_type: Type.Array(Type.Object({ task_type: Type.String(), ...Summary })),
    throughput: Type.Array(
      Type.Object({ week_start: Type.String({ description: 'The Monday of the week.' }), completed: Type.Integer() }),
    ),
  },
  { $id: 'CycleTimeReport', title: 'CycleTimeReport' },
);

export const Velocity = Type.Object(
  {
    project: Type.String(),
    unit: Unit,
    as_of: ReportAsOf,
    sprints: Type.Array(
      Type.Object({
        id: Type.Integer(),
        name: Type.String(),
        start_date: Type.String(),
        end_date: Type.String(),
        committed_estimate: Type.Number({ description: "Estimate of the sprint's tasks when its first day started." }),
        completed_estimate: Type.Number({ description: 'Estimate of its tasks done at the end of its last day.' }),
        completed_tasks: Type.Integer(),
      }),
    ),
    average_completed_estimate: Type.Union([Type.Number(), Type.Null()], {
      description: 'Mean completed estimate of the last three sprints.',
    }),
  },
  { $id: 'VelocityReport', title: 'VelocityReport' },
);
