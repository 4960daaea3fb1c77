import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import type {
  WebhookCatalogEntry,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointCreated,
} from '../../lib/api-types.ts';
import {
  ConfirmDialog,
  ErrorNote,
  Field,
  Form,
  SaveCancel,
  SecretNote,
  Spinner,
  Table,
  formatDateTime,
  useNotify,
} from '../../ui/index.ts';
import {
  catalogQuery,
  createEndpoint,
  deleteEndpoint,
  DELIVERIES_PER_PAGE,
  deliveriesQuery,
  deliveryQuery,
  endpointsQuery,
  replayDelivery,
  sendTest,
  updateEndpoint,
  WEBHOOK_FORMATS,
  webhookKeys,
  type EndpointBody,
  type WebhookFormat,
} from './api.ts';

const endpointPath = (id: number) => `/settings/webhooks/${id}`;

/** Webhook endpoints of the organization: the list and a new one, or one endpoint with its delivery log. */
export function Webhooks({ endpoint }: { endpoint: number | null }) {
  return endpoint !== null && Number.isInteger(endpoint) ? <EndpointScreen id={endpoint} /> : <EndpointList />;
}

function EndpointList() {
  const client = useQueryClient();
  const catalog = useQuery(catalogQuery);
  const endpoints = useQuery(endpointsQuery);
  // The signing secret is shown once, on the new endpoint's own card.
  const [created, setCreated] = useState<WebhookEndpointCreated | null>(null);
  const subscribable = catalog.data?.filter((c) => c.subscribable) ?? [];
  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <ErrorNote error={endpoints.error ?? catalog.error} />
      {endpoints.isPending ? <Spinner /> : null}
      {endpoints.data?.length === 0 ? <p className="muted">No endpoints yet: add the first one below.</p> : null}
      <ul className="plain">
        {endpoints.data?.map((e) => (
          <li key={e.id} className="endpoint">
            <EndpointSummary endpoint={e} link />
            {created?.id === e.id ? (
              <SecretNote>
                Signing secret for {created.url} (shown once, copy it now): <code>{created.secret}</code>
              </SecretNote>
            ) : null}
          </li>
        ))}
      </ul>
      <h3>New endpoint</h3>
      <EndpointForm
        subscribable={subscribable}
        submitLabel="Create endpoint"
        save={createEndpoint}
        onSaved={(endpoint) => {
          setCreated(endpoint as WebhookEndpointCreated);
          void client.invalidateQueries({ queryKey: webhookKeys.endpoints });
        }}
      />
    </section>
  );
}

function EndpointSummary({ endpoint: e, link }: { endpoint: WebhookEndpoint; link?: boolean }) {
  return (
    <>
      <div className="endpoint-head">
        {link ? <Link href={endpointPath(e.id)}>{e.url}</Link> : null}
        <span className={e.enabled ? 'state state-on' : 'state state-off'}>{e.enabled ? 'Enabled' : 'Disabled'}</span>
        {e.description ? <span className="muted">{e.description}</span> : null}
      </div>
      <div className="muted">Events: {e.events.join(', ')}</div>
      {e.format !== 'json' ? (
        <div className="muted">Posts as: {WEBHOOK_FORMATS.find((f) => f.value === e.format)?.label ?? e.format}</div>
      ) : null}
      {e.filter ? (
        <div className="muted">
          Only tasks matching <code>{e.filter}</code>
        </div>
      ) : null}
      {e.disabled_reason ? <div className="error">Disabled: {e.disabled_reason}</div> : null}
    </>
  );
}

/** One endpoint: edit, disable or re-enable, test, delete, and its delivery log. */
function EndpointScreen({ id }: { id: number }) {
  const client = useQueryClient();
  const notify = useNotify();
  const [, navigate] = useLocation();
  const catalog = useQuery(catalogQuery);
  const endpoints = useQuery(endpointsQuery);
  const endpoint = endpoints.data?.find((e) => e.id === id);
  const [editing, setEditing] = useState(false);
  const [asking, setAsking] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: webhookKeys.endpoints });
  const toggle = useMutation({
    mutationFn: (e: WebhookEndpoint) => updateEndpoint(e.id, { enabled: !e.enabled }),
    onSuccess: (e) => notify({ kind: 'info', message: e.enabled ? 'Endpoint re-enabled.' : 'Endpoint disabled.' }),
    onSettled: refresh,
  });
  const test = useMutation({
    mutationFn: sendTest,
    onSuccess: () => {
      notify({ kind: 'info', message: 'Test event queued.' });
      void client.invalidateQueries({ queryKey: webhookKeys.deliveries });
    },
  });
  const remove = useMutation({
    mutationFn: deleteEndpoint,
    onSuccess: () => {
      setAsking(false);
      notify({ kind: 'info', message: 'Endpoint deleted.' });
      client.setQueryData<WebhookEndpoint[]>(webhookKeys.endpoints, (list) => list?.filter((e) => e.id !== id));
      navigate('/settings/webhooks');
    },
  });
  if (endpoints.isPending) return <Spinner />;
  if (!endpoint)
    return (
      <>
        <ErrorNote error={endpoints.error} />
        <p>
          No endpoint {id} is visible to you. <Link href="/settings/webhooks">All endpoints</Link>.
        </p>
      </>
    );
  return (
    <section aria-labelledby="endpoint-title">
      <p className="crumbs">
        <Link href="/settings/webhooks">Webhooks</Link> /
      </p>
      <h2 id="endpoint-title" className="endpoint-url">
        {endpoint.url}
      </h2>
      <div className="endpoint">
        <EndpointSummary endpoint={endpoint} />
        <div className="actions">
          <button type="button" onClick={() => setEditing(true)} disabled={editing}>
            Edit endpoint
          </button>
          <button type="button" onClick={() => toggle.mutate(endpoint)} disabled={toggle.isPending}>
            {endpoint.enabled ? 'Disable endpoint' : 'Re-enable endpoint'}
          </button>
          <button type="button" onClick={() => test.mutate(endpoint.id)} disabled={test.isPending}>
            Send a test event
          </button>
          <button type="button" className="danger" onClick={() => setAsking(true)}>
            Delete endpoint
          </button>
        </div>
      </div>
      {editing ? (
        <EndpointForm
          subscribable={catalog.data?.filter((c) => c.subscribable) ?? []}
          initial={endpoint}
          submitLabel="Save endpoint"
          save={(body) => updateEndpoint(endpoint.id, body)}
          onCancel={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            notify({ kind: 'info', message: 'Endpoint saved.' });
            void refresh();
          }}
        />
      ) : null}
      <ConfirmDialog
        open={asking}
        title={`Delete the endpoint ${endpoint.url}?`}
        confirmLabel="Delete the endpoint"
        busy={remove.isPending}
        onConfirm={() => remove.mutate(endpoint.id)}
        onClose={() => setAsking(false)}
      >
        <p>
          Nothing more is sent to it, deliveries still waiting are dropped, and its delivery log and signing secret are
          gone for good. To pause it instead, disable it.
        </p>
        <ErrorNote error={remove.error} />
      </ConfirmDialog>
      <Deliveries endpoint={endpoint.id} events={endpoint.events} />
    </section>
  );
}

/** Create or change an endpoint: receiver URL, description, message format, events (none ticked: all) and a task filter. */
function EndpointForm({
  subscribable,
  initial,
  submitLabel,
  save,
  onSaved,
  onCancel,
}: {
  subscribable: WebhookCatalogEntry[];
  initial?: WebhookEndpoint;
  submitLabel: string;
  save: (body: EndpointBody) => Promise<WebhookEndpoint>;
  onSaved: (endpoint: WebhookEndpoint) => void;
  onCancel?: () => void;
}) {
  const everything = initial && subscribable.every((c) => initial.events.includes(c.type));
  const [url, setUrl] = useState(initial?.url ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [events, setEvents] = useState<string[]>(everything ? [] : (initial?.events ?? []));
  const [filter, setFilter] = useState(initial?.filter ?? '');
  const [format, setFormat] = useState<WebhookFormat>(initial?.format ?? 'json');
  const mutation = useMutation({
    mutationFn: () =>
      save({
        url,
        description,
        // None ticked means all: a new endpoint gets the default, a changed one every type listed.
        ...(events.length
          ? { events }
          : initial && subscribable.length
            ? { events: subscribable.map((c) => c.type) }
            : {}),
        filter: filter.trim() ? filter.trim() : null,
        format,
      }),
    meta: { quiet: true },
    onSuccess: (endpoint) => {
      if (!initial) {
        setUrl('');
        setDescription('');
        setEvents([]);
        setFilter('');
        setFormat('json');
      }
      onSaved(endpoint);
    },
  });
  return (
    <Form className="stack" label={initial ? 'Edit endpoint' : 'New endpoint'} onSubmit={() => mutation.mutate()}>
      <Field label="Receiver URL" hint="HTTPS, on a public address.">
        {(id) => (
          <input
            id={id}
            type="url"
            required
            placeholder="https://hooks.example.com/tasktracker"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        )}
      </Field>
      <Field
        label="Message format"
        hint="JSON for a receiver of your own; Slack, Discord or Teams post a message into a channel (its webhook URL above)."
      >
        {(id) => (
          <select id={id} value={format} onChange={(e) => setFormat(e.target.value as WebhookFormat)}>
            {WEBHOOK_FORMATS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Endpoint description">
        {(id) => <input id={id} value={description} onChange={(e) => setDescription(e.target.value)} />}
      </Field>
      <Field label="Only tasks matching" hint="A query, such as label = bug AND status_category != done. Empty: all.">
        {(id) => <input id={id} value={filter} onChange={(e) => setFilter(e.target.value)} />}
      </Field>
      <fieldset>
        <legend>Events (none chosen: all of them)</legend>
        {subscribable.map((c) => (
          <label key={c.type} className="check" title={c.description}>
            <input
              type="checkbox"
              checked={events.includes(c.type)}
              onChange={() =>
                setEvents(events.includes(c.type) ? events.filter((x) => x !== c.type) : [...events, c.type])
              }
            />{' '}
            {c.type}
          </label>
        ))}
      </fieldset>
      <ErrorNote error={mutation.error} />
      {onCancel ? (
        <SaveCancel pending={mutation.isPending} onCancel={onCancel} />
      ) : (
        <div className="actions">
          <button type="submit" className="primary" disabled={mutation.isPending}>
            {submitLabel}
          </button>
        </div>
      )}
    </Form>
  );
}

function Deliveries({ endpoint, events }: { endpoint: number; events: string[] }) {
  const client = useQueryClient();
  const [status, setStatus] = useState('');
  const [eventType, setEventType] = useState('');
  const [open, setOpen] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const deliveries = useQuery(deliveriesQuery(endpoint, status, eventType, page));
  const shown = deliveries.data?.deliveries;
  const count = deliveries.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / DELIVERIES_PER_PAGE));
  // A page past the end (the log shrank while it was open) steps back to the last one.
  if (page > pages && deliveries.data && !deliveries.isPlaceholderData) setPage(pages);
  const replay = useMutation({
    mutationFn: replayDelivery,
    onSuccess: () => client.invalidateQueries({ queryKey: webhookKeys.deliveries }),
  });
  const filtered = status || eventType;
  return (
    <section aria-labelledby="deliveries-title">
      <h3 id="deliveries-title">Delivery log</h3>
      <div className="inline-form">
        <Field label="Delivery status">
          {(id) => (
            <select
              id={id}
              value={status}
              onChange={(e) => {
                // A filter starts again from the newest deliveries.
                setStatus(e.target.value);
                setPage(1);
              }}
            >
              <option value="">Any</option>
              <option value="pending">Pending</option>
              <option value="delivered">Delivered</option>
              <option value="failed">Failed</option>
            </select>
          )}
        </Field>
        <Field label="Event">
          {(id) => (
            <select
              id={id}
              value={eventType}
              onChange={(e) => {
                setEventType(e.target.value);
                setPage(1);
              }}
            >
              <option value="">Any</option>
              {['webhook.test', ...events].map((type) => (
                <option key={type}>{type}</option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <ErrorNote error={deliveries.error ?? replay.error} />
      <Table columns={['Event', 'Status', 'Attempts', 'Last response', 'Created']} actions>
        {shown?.map((d) => (
          <DeliveryRow
            key={d.id}
            delivery={d}
            open={open === d.id}
            onToggle={() => setOpen(open === d.id ? null : d.id)}
            onReplay={() => replay.mutate(d.id)}
          />
        ))}
      </Table>
      {count > DELIVERIES_PER_PAGE ? (
        <nav className="pager" aria-label="Delivery log pages">
          <button type="button" disabled={page === 1} onClick={() => setPage(page - 1)}>
            Newer
          </button>
          <span aria-live="polite">
            {(page - 1) * DELIVERIES_PER_PAGE + 1}–{Math.min(page * DELIVERIES_PER_PAGE, count)} of {count}, page {page}{' '}
            of {pages}
          </span>
          <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Older
          </button>
        </nav>
      ) : null}
      {shown?.length === 0 ? (
        <p className="muted">
          No deliveries{status ? ` with status ${status}` : ''}
          {eventType ? ` of ${eventType}` : ''}
          {filtered ? '' : ' yet'}.
        </p>
      ) : null}
    </section>
  );
}

function DeliveryRow({
  delivery: d,
  open,
  onToggle,
  onReplay,
}: {
  delivery: WebhookDelivery;
  open: boolean;
  onToggle: () => void;
  onReplay: () => void;
}) {
  const detail = useQuery({ ...deliveryQuery(d.id, d.attempts), enabled: open });
  return (
    <>
      <tr>
        <td>
          {d.event_type}
          {d.test ? ' (test)' : ''}
          {d.replay_of ? ` (replay of #${d.replay_of})` : ''}
        </td>
        <td>
          {d.status}
          {d.next_attempt_at ? <div className="muted">next try {formatDateTime(d.next_attempt_at)}</div> : null}
        </td>
        <td>{d.attempts}</td>
        <td>{d.response_status ?? d.error ?? '—'}</td>
        <td>{formatDateTime(d.created_at)}</td>
        <td className="actions">
          <button type="button" aria-expanded={open} onClick={onToggle}>
            Attempts of delivery {d.id}
          </button>
          {d.status !== 'pending' ? (
            <button type="button" onClick={onReplay}>
              Replay delivery {d.id}
            </button>
          ) : null}
        </td>
      </tr>
      {open ? (
        <tr>
          <td colSpan={6} className="attempts">
            <ErrorNote error={detail.error} />
            {detail.data?.attempt_history.length === 0 ? <p className="muted">No attempt yet.</p> : null}
            <ol>
              {detail.data?.attempt_history.map((a) => (
                <li key={a.number}>
                  Attempt {a.number}, {formatDateTime(a.started_at)}:{' '}
                  {a.response_status !== null ? `HTTP ${a.response_status}` : 'no response'}
                  {a.duration_ms !== null ? ` in ${a.duration_ms} ms` : ' (in flight)'}
                  {a.error ? ` — ${a.error}` : ''}
                  {a.response_body ? <pre aria-label={`Response to attempt ${a.number}`}>{a.response_body}</pre> : null}
                </li>
              ))}
            </ol>
          </td>
        </tr>
      ) : null}
    </>
  );
}
