import { useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { usePeople } from '../people/use-people.ts';
import { ErrorNote, Field, Form, Spinner, Table, formatDateTime } from '../../ui/index.ts';
import { AUDIT_ACTION_GROUPS, NO_FILTERS, auditQuery, exportUrl, type AuditFilters, type AuditRecord } from './api.ts';

const SOURCES: Record<string, string> = {
  app: 'signed in',
  api: 'API token',
  agent: 'agent (MCP)',
  scheduler: 'worker',
  operator: 'command line',
};

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** What changed, one line a field: "role: member → admin"; a creation lists what it made, a deletion what it was. */
function Change({ record }: { record: AuditRecord }) {
  const { before, after } = record;
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  if (keys.length === 0) return null;
  return (
    <ul className="plain audit-change">
      {keys.map((key) => (
        <li key={key}>
          <span className="muted">{key}:</span>{' '}
          {before && after
            ? `${shown(before[key] ?? null)} → ${shown(after[key] ?? null)}`
            : shown((after ?? before)![key] ?? null)}
        </li>
      ))}
    </ul>
  );
}

/**
 * Settings → Audit log: who changed what in the organization, newest first, filtered as the
 * console API filters (person, action, days), with the filtered log as a CSV or JSON lines download.
 */
export function AuditLog() {
  const people = usePeople();
  const [draft, setDraft] = useState<AuditFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const log = useInfiniteQuery(auditQuery(filters));
  const records = log.data?.pages.flatMap((page) => page.records) ?? [];
  const set = (key: keyof AuditFilters) => (event: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: event.target.value }));
  return (
    <section className="audit-log" aria-labelledby="audit-title">
      <h2 id="audit-title">Audit log</h2>
      <p className="muted">
        Every change to the organization: people, tokens, webhooks, projects, workflows, fields and sign-ins. Nobody can
        change or delete a record.
      </p>
      <Form label="Filter the audit log" onSubmit={() => setFilters(draft)}>
        <Field label="Person">
          {(id) => (
            <select id={id} value={draft.actor} onChange={set('actor')}>
              <option value="">Anyone</option>
              {people.data?.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Action">
          {(id) => (
            <select id={id} value={draft.action} onChange={set('action')}>
              <option value="">Any action</option>
              {AUDIT_ACTION_GROUPS.map((group) => (
                <optgroup key={group.label} label={group.label}>
                  {group.actions.map((action) => (
                    <option key={action}>{action}</option>
                  ))}
                </optgroup>
              ))}
            </select>
          )}
        </Field>
        <Field label="From">{(id) => <input id={id} type="date" value={draft.from} onChange={set('from')} />}</Field>
        <Field label="To">{(id) => <input id={id} type="date" value={draft.to} onChange={set('to')} />}</Field>
        <button type="submit">Filter</button>
        <button
          type="button"
          className="link"
          onClick={() => {
            setDraft(NO_FILTERS);
            setFilters(NO_FILTERS);
          }}
        >
          Clear filters
        </button>
      </Form>
      <p>
        Download what the filters show: <a href={exportUrl(filters, 'csv')}>CSV</a> ·{' '}
        <a href={exportUrl(filters, 'jsonl')}>JSON lines</a>
      </p>
      <ErrorNote error={log.error} />
      {log.isPending ? <Spinner /> : null}
      {log.isSuccess && records.length === 0 ? <p className="muted">No records match.</p> : null}
      {records.length ? (
        <Table caption="Audit records, newest first" columns={['When', 'Who', 'Action', 'About', 'Change']}>
          {records.map((r) => (
            <tr key={r.id}>
              <td>{formatDateTime(r.occurred_at)}</td>
              <td>
                {r.actor.name}
                <br />
                <span className="muted">{SOURCES[r.via.source] ?? r.via.source}</span>
                {r.address ? (
                  <>
                    <br />
                    <span className="muted">{r.address}</span>
                  </>
                ) : null}
              </td>
              <td>
                <code>{r.action}</code>
                <br />
                <span className="muted correlation" title="The request id its events and log lines share">
                  {r.correlation_id}
                </span>
              </td>
              <td>
                {r.target ? `${r.target.type.replace('_', ' ')} ${r.target.name}` : ''}
                {r.project && r.target?.type !== 'project' ? (
                  <span className="muted"> ({r.project.key ?? 'deleted project'})</span>
                ) : null}
              </td>
              <td>
                <Change record={r} />
              </td>
            </tr>
          ))}
        </Table>
      ) : null}
      {log.hasNextPage ? (
        <button type="button" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          Show older records
        </button>
      ) : null}
    </section>
  );
}
