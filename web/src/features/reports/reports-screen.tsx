import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useSearch } from 'wouter';
import { get, qs } from '../../lib/http.ts';
import { ProjectTabs } from '../projects/project-header.tsx';
import { useProject, useProjectConfig } from '../projects/use-project.ts';
import { ErrorNote, formatDateTime, Spinner } from '../../ui/index.ts';
import { addDays, today } from '../planning/dates.ts';
import { ChartView, PALETTE, type ChartSpec, type Series } from './chart.tsx';
import { csvOf, summaryOf, tablesOf, title, type ReportTable } from './tables.ts';
import '../planning/planning.css';

const REPORTS = {
  burndown: { name: 'Burndown', chart: 'line', about: 'What is left in the sprint each day, against the ideal line.' },
  flow: { name: 'Cumulative flow', chart: 'area', about: 'How many tasks stood in each status each day.' },
  'cycle-time': {
    name: 'Cycle time',
    chart: 'bar',
    about: 'Days from start to done (cycle) and from creation to done (lead), by type; tasks done per week.',
  },
  velocity: { name: 'Velocity', chart: 'bar', about: 'The estimate completed in each closed sprint.' },
} as const;
type Report = keyof typeof REPORTS;

function readSearch(search: string) {
  const params = new URLSearchParams(search);
  const wanted = params.get('report') ?? '';
  const report: Report = wanted in REPORTS ? (wanted as Report) : 'burndown';
  return {
    report,
    sprint: params.get('sprint') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    asOf: params.get('as_of') ?? '',
  };
}

/** The reports of a project, each a chart with its numbers in a table beside it, exported as CSV. */
export function ReportsScreen({ projectKey }: { projectKey: string }) {
  const { project, error: projectError, isPending } = useProject(projectKey);
  const config = useProjectConfig(project);
  const search = useSearch();
  const [location, navigate] = useLocation();
  const state = readSearch(search);
  const { report } = state;
  // A burndown without a sprint is the active one's (else the latest); the others default to the last 12 weeks.
  const sprint =
    state.sprint ||
    String(
      config.sprints.find((s) => s.state === 'active')?.id ??
        config.sprints.filter((s) => s.state === 'completed').at(-1)?.id ??
        '',
    );
  const from = state.from || (report === 'burndown' ? '' : addDays(today(), -84));
  const to = state.to || (report === 'burndown' ? '' : today());
  const params = {
    sprint: report === 'burndown' ? sprint || null : null,
    from: report === 'velocity' ? null : from || null,
    to: report === 'velocity' ? null : to || null,
    as_of: state.asOf ? new Date(`${state.asOf}T23:59:59`).toISOString() : null,
  };
  const path = `/api/v1/projects/${projectKey}/reports/${report}/${qs(params)}`;
  const answer = useQuery({
    queryKey: ['reports', projectKey, path],
    queryFn: ({ signal }) => get<unknown>(path, signal),
    enabled: project !== null && (report !== 'burndown' || Boolean(sprint) || Boolean(from && to)),
  });

  const go = (changes: Partial<typeof state>) => {
    const next = { ...state, ...changes };
    navigate(
      `${location}${qs({ report: next.report === 'burndown' ? null : next.report, sprint: next.sprint, from: next.from, to: next.to, as_of: next.asOf })}`,
      { replace: true },
    );
  };

  if (isPending) return <Spinner />;
  if (!project) return <ErrorNote error={projectError ?? new Error(`No project ${projectKey} is visible to you.`)} />;
  return (
    <section className="reports-screen" aria-labelledby="reports-title">
      <ProjectTabs project={project} current="reports" titleId="reports-title" />
      <nav className="segmented report-picker" aria-label="Reports">
        {(Object.keys(REPORTS) as Report[]).map((r) => (
          <button key={r} type="button" aria-pressed={report === r} onClick={() => go({ report: r })}>
            {REPORTS[r].name}
          </button>
        ))}
      </nav>
      <form className="filters" aria-label="Report period" onSubmit={(e) => e.preventDefault()}>
        {report === 'burndown' ? (
          <label className="filter">
            <span>Sprint</span>
            <select value={sprint} onChange={(e) => go({ sprint: e.target.value })}>
              {sprint ? null : <option value="">Choose a sprint</option>}
              {config.sprints.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({s.state})
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {report !== 'velocity' && report !== 'burndown' ? (
          <>
            <label className="filter">
              <span>From</span>
              <input type="date" value={from} onChange={(e) => go({ from: e.target.value })} />
            </label>
            <label className="filter">
              <span>To</span>
              <input type="date" value={to} onChange={(e) => go({ to: e.target.value })} />
            </label>
          </>
        ) : null}
        <label className="filter">
          <span>As it was on</span>
          <input type="date" value={state.asOf} max={today()} onChange={(e) => go({ asOf: e.target.value })} />
        </label>
      </form>
      <p className="muted">{REPORTS[report].about}</p>
      <ErrorNote error={answer.error} title="The report could not be made" />
      {report === 'burndown' && !sprint ? (
        <p className="empty-state">This project has no sprint yet: a burndown follows one sprint.</p>
      ) : answer.isPending ? (
        <Spinner label="Computing the report" />
      ) : answer.data !== undefined ? (
        <ReportView report={report} answer={answer.data} projectKey={projectKey} />
      ) : null}
    </section>
  );
}

function ReportView({ report, answer, projectKey }: { report: Report; answer: unknown; projectKey: string }) {
  const tables = useMemo(() => tablesOf(answer), [answer]);
  const summary = summaryOf(answer);
  return (
    <div className="report">
      {summary.length ? (
        <dl className="report-summary">
          {summary.map(([name, value]) => (
            <div key={name}>
              <dt>{title(name)}</dt>
              <dd>
                {typeof value === 'number'
                  ? value.toLocaleString()
                  : name === 'as_of' && typeof value === 'string'
                    ? formatDateTime(value)
                    : value}
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
      {tables.length === 0 ? <p className="muted">No figures for this period.</p> : null}
      {tables.map((table) => (
        <ReportPart
          key={table.path}
          report={report}
          table={table}
          file={`${projectKey}-${report}-${table.path.replace(/\W+/g, '-')}.csv`}
        />
      ))}
    </div>
  );
}

/** How a table is drawn: each report's own kind of chart. */
function specOf(report: Report, table: ReportTable): ChartSpec | null {
  // One row per task (time in each status), or too many to draw: the table says it better.
  if (table.labelColumn === 'key' || table.rows.length > 400 || table.columns.length > 12) return null;
  const kind = REPORTS[report].chart;
  const series: Series[] = table.columns.map((column, i) => ({
    label: title(column),
    values: table.rows.map((r) => r.values[i] ?? null),
    color: PALETTE[i % PALETTE.length]!,
    dashed: /ideal/i.test(column),
    area: kind === 'area',
  }));
  return {
    kind: kind === 'bar' ? 'bar' : 'line',
    labels: table.rows.map((r) => r.label),
    series,
    stacked: kind === 'area',
  };
}

function ReportPart({ report, table, file }: { report: Report; table: ReportTable; file: string }) {
  const spec = useMemo(() => specOf(report, table), [report, table]);
  const name = `${REPORTS[report].name}: ${title(table.path.split('.').at(-1) ?? table.path)}`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([csvOf(table)], { type: 'text/csv' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = file;
    link.click();
    URL.revokeObjectURL(url);
  };
  const shown = table.rows.slice(0, 500);
  return (
    <figure className="report-part" aria-label={name}>
      <figcaption className="report-head">
        <h2>{name}</h2>
        <button type="button" onClick={download}>
          Export CSV
        </button>
      </figcaption>
      <div className={spec ? 'report-body' : 'report-body table-only'}>
        {spec ? <ChartView spec={spec} label={`${name}, chart. The same numbers are in the table beside it.`} /> : null}
        <div className="table-wrap report-table" tabIndex={0} role="region" aria-label={`${name}, table`}>
          <table>
            <caption className="sr-only">{name}</caption>
            <thead>
              <tr>
                <th scope="col">{title(table.labelColumn || 'row')}</th>
                {table.columns.map((c) => (
                  <th key={c} scope="col" className="num">
                    {title(c)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.map((row, i) => (
                <tr key={`${row.label}-${i}`}>
                  <th scope="row">{row.label}</th>
                  {row.values.map((v, j) => (
                    <td key={j} className="num">
                      {v === null ? '' : Number.isInteger(v) ? v.toLocaleString() : v.toFixed(1)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {table.rows.length > shown.length ? (
            <p className="muted">
              The first {shown.length} of {table.rows.length.toLocaleString()} rows; the CSV has them all.
            </p>
          ) : null}
        </div>
      </div>
    </figure>
  );
}
