import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WebhookCatalogEntry, WebhookDelivery, WebhookEndpointCreated } from '../../lib/api-types.ts';
import { ErrorNote, Field, Form, SecretNote, Table, formatDateTime, useNotify } from '../../ui/index.ts';
import {
  catalogQuery,
  createEndpoint,
  deliveriesQuery,
  deliveryQuery,
  endpointsQuery,
  replayDelivery,
  sendTest,
  updateEndpoint,
  webhookKeys,
} from './api.ts';

/** Webhook endpoints of the organization: create (secret shown once), enable, test, deliveries and replay. */
export function Webhooks() {
  const client = useQueryClient();
  const notify = useNotify();
  const catalog = useQuery(catalogQuery);
  const endpoints = useQuery(endpointsQuery);
  const [selected, setSelected] = useState<number | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: webhookKeys.endpoints });
  const toggle = useMutation({
    mutationFn: (e: { id: number; enabled: boolean }) => updateEndpoint(e.id, { enabled: !e.enabled }),
    onSettled: refresh,
  });
  const test = useMutation({
    mutationFn: sendTest,
    onSuccess: (_data, id) => {
      notify({ kind: 'info', message: 'Test event queued.' });
      setSelected(id);
      void client.invalidateQueries({ queryKey: webhookKeys.deliveries });
    },
  });
  const subscribable = catalog.data?.filter((c) => c.subscribable) ?? [];
  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <ErrorNote error={endpoints.error ?? catalog.error} />
      <ul className="plain endpoints">
        {endpoints.data?.map((e) => (
          <li key={e.id}>
            <strong>{e.url}</strong> {e.description ? <span className="muted">{e.description}</span> : null}
            <div className="muted">{e.events.join(', ')}</div>
            {e.disabled_reason ? <div className="error">Disabled: {e.disabled_reason}</div> : null}
            <div className="actions">
              <label className="check">
                <input type="checkbox" checked={e.enabled} onChange={() => toggle.mutate(e)} /> Enabled
              </label>
              <button type="button" onClick={() => test.mutate(e.id)}>
                Send a test to {e.url}
              </button>
              <button type="button" onClick={() => setSelected(e.id)} aria-pressed={selected === e.id}>
                Deliveries of {e.url}
              </button>
            </div>
          </li>
        ))}
      </ul>
      {selected !== null ? <Deliveries endpoint={selected} /> : null}
      <NewEndpoint subscribable={subscribable} onCreated={refresh} />
    </section>
  );
}

/** An endpoint for a receiver URL and the events ticked; its signing secret is shown once, under the form. */
function NewEndpoint({ subscribable, onCreated }: { subscribable: WebhookCatalogEntry[]; onCreated: () => unknown }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [created, setCreated] = useState<WebhookEndpointCreated | null>(null);
  const create = useMutation({
    mutationFn: () => createEndpoint({ url, description, ...(events.length ? { events } : {}) }),
    meta: { quiet: true },
    onSuccess: (endpoint) => {
      setCreated(endpoint);
      setUrl('');
      setDescription('');
      setEvents([]);
      void onCreated();
    },
  });
  return (
    <>
      <h3>New endpoint</h3>
      <Form className="stack" onSubmit={() => create.mutate()}>
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
        <Field label="Endpoint description">
          {(id) => <input id={id} value={description} onChange={(e) => setDescription(e.target.value)} />}
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
        <ErrorNote error={create.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={create.isPending}>
            Create endpoint
          </button>
        </div>
      </Form>
      {created?.secret ? (
        <SecretNote>
          Signing secret for {created.url} (shown once, copy it now): <code>{created.secret}</code>
        </SecretNote>
      ) : null}
    </>
  );
}

function Deliveries({ endpoint }: { endpoint: number }) {
  const client = useQueryClient();
  const [status, setStatus] = useState('');
  const [open, setOpen] = useState<number | null>(null);
  const deliveries = useQuery(deliveriesQuery(endpoint, status));
  const replay = useMutation({
    mutationFn: replayDelivery,
    onSuccess: () => client.invalidateQueries({ queryKey: webhookKeys.deliveries }),
  });
  return (
    <section aria-labelledby="deliveries-title">
      <h3 id="deliveries-title">Deliveries</h3>
      <Field label="Delivery status">
        {(id) => (
          <select id={id} value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any</option>
            <option value="pending">Pending</option>
            <option value="delivered">Delivered</option>
            <option value="failed">Failed</option>
          </select>
        )}
      </Field>
      <ErrorNote error={deliveries.error ?? replay.error} />
      <Table columns={['Event', 'Status', 'Attempts', 'Last response', 'Created']} actions>
        {deliveries.data?.map((d) => (
          <DeliveryRow
            key={d.id}
            delivery={d}
            open={open === d.id}
            onToggle={() => setOpen(open === d.id ? null : d.id)}
            onReplay={() => replay.mutate(d.id)}
          />
        ))}
      </Table>
      {deliveries.data?.length === 0 ? (
        <p className="muted">No deliveries{status ? ` with status ${status}` : ''}.</p>
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
        <td>{d.status}</td>
        <td>{d.attempts}</td>
        <td>{d.response_status ?? d.error ?? '—'}</td>
        <td>{formatDateTime(d.created_at)}</td>
        <td className="actions">
          <button type="button" aria-expanded={open} onClick={onToggle}>
            Attempts of delivery {d.id}
          </button>
          <button type="button" onClick={onReplay}>
            Replay delivery {d.id}
          </button>
        </td>
      </tr>
      {open ? (
        <tr>
          <td colSpan={6}>
            <ErrorNote error={detail.error} />
            {detail.data?.attempt_history.length === 0 ? <p className="muted">No attempt yet.</p> : null}
            <ol>
              {detail.data?.attempt_history.map((a) => (
                <li key={a.number}>
                  {formatDateTime(a.started_at)}:{' '}
                  {a.response_status !== null ? `HTTP ${a.response_status}` : 'no response'} in {a.duration_ms} ms
                  {a.error ? ` — ${a.error}` : ''}
                </li>
              ))}
            </ol>
          </td>
        </tr>
      ) : null}
    </>
  );
}
