import type { burndown, cycleTime, flow, velocity } from './reports.service.ts';

type Report<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;
export type CsvReport =
  Report<typeof burndown> | Report<typeof flow> | Report<typeof cycleTime> | Report<typeof velocity>;

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; a leading =+-@ is defused for spreadsheets. */
function cell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const lines = (rows: unknown[][]) => rows.map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';

/** The table beside each chart, as CSV. */
export type CsvKind = 'burndown' | 'flow' | 'cycle-time' | 'velocity';

export function toCsv(kind: CsvKind, report: CsvReport): string {
  switch (kind) {
    case 'burndown': {
      const { days } = report as Report<typeof burndown>;
      const columns = [
        'date',
        'remaining_estimate',
        'remaining_tasks',
        'added_tasks',
        'added_estimate',
        'removed_tasks',
        'removed_estimate',
        'ideal_estimate',
      ] as const;
      return lines([[...columns], ...days.map((day) => columns.map((c) => day[c]))]);
    }
    case 'flow': {
      const { statuses, days } = report as Report<typeof flow>;
      return lines([
        ['date', ...statuses.map((s) => s.name)],
        ...days.map((day) => [day.date, ...statuses.map((s) => day.counts[s.name] ?? 0)]),
      ]);
    }
    case 'cycle-time': {
      const { overall, by_type } = report as Report<typeof cycleTime>;
      const row = (type: string, s: typeof overall) => [
        type,
        s.completed,
        s.cycle_time_hours.p50,
        s.cycle_time_hours.p85,
        s.cycle_time_hours.p95,
        s.lead_time_hours.p50,
        s.lead_time_hours.p85,
        s.lead_time_hours.p95,
      ];
      return lines([
        [
          'task_type',
          'completed',
          'cycle_p50_hours',
          'cycle_p85_hours',
          'cycle_p95_hours',
          'lead_p50_hours',
          'lead_p85_hours',
          'lead_p95_hours',
        ],
        ...by_type.map((t) => row(t.task_type, t)),
        row('(all)', overall),
      ]);
    }
    case 'velocity': {
      const { sprints } = report as Report<typeof velocity>;
      return lines([
        ['sprint', 'start_date', 'end_date', 'committed_estimate', 'completed_estimate', 'completed_tasks'],
        ...sprints.map((s) => [
          s.name,
          s.start_date,
          s.end_date,
          s.committed_estimate,
          s.completed_estimate,
          s.completed_tasks,
        ]),
      ]);
    }
  }
}
