import { signatureMatches } from '@tasktracker/webhooks';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import type { WebhookFormat } from '../../db/schema.ts';
import { decryptSecret, encryptSecret, newSigningSecret, secretKey } from '../../crypto/secret-box.ts';
import { EVENT_CATALOG, SUBSCRIBABLE_EVENT_TYPES } from '../../events/catalog.ts';
import { originFromPrincipal, recordEvent } from '../../events/record-event.ts';
import { changedFields, hasChanges, recordAudit } from '../audit/record-audit.ts';
import { ApiError, forbidden, foundOr404, invalid } from '../../http/errors.ts';
import type { PageRequest } from '../../http/pagination.ts';
import { authorizeSpanning, bindableProject, endpointFor, visibleProjectsOf } from '../../policy/index.ts';
import { visibleOne } from '../../policy/visible-one.ts';
import type { Principal } from '../../identity/principal.ts';
import { bindFor, checkQuery } from '../query/query.service.ts';
import { type DeliveryJson, getDelivery } from './deliveries.service.ts';
import { webhookIo } from './delivery/io.ts';
import { checkTarget, UnsafeTargetError } from './delivery/url-guard.ts';
import { presentEndpoint } from './webhooks.presenter.ts';
import * as repo from './webhooks.repository.ts';

/**
 * Webhook endpoints (docs/api/webhooks.md). Creating and changing one is two steps: the
 * checks that may wait on the network (the URL's DNS answer) run first, outside any
 * transaction; the write then runs in the caller's unit of work.
 */
export interface EndpointCreate {
  url: string;
  description?: string;
  events?: string[];
  project?: number | null;
  filter?: string | null;
  format?: WebhookFormat;
}

export interface EndpointChanges {
  url?: string;
  description?: string;
  events?: string[];
  project?: number | null;
  filter?: string | null;
  format?: WebhookFormat;
  enabled?: boolean;
}

const SAVE_RESOLVE_TIMEOUT_MS = 5000;

const KNOWN_TYPES = new Set<string>(EVENT_CATALOG.map((e) => e.type));

export function listCatalog() {
  return EVENT_CATALOG.map(({ type, description, subscribable }) => ({ type, description, subscribable }));
}

/** Subscriptions are checked against the catalog, the same definition GET .../catalog/ serves. */
function validateEvents(events: string[]): string[] {
  for (const type of events) {
    if (!KNOWN_TYPES.has(type)) {
      throw invalid({ events: `unknown event type "${type}"; the catalog (GET /api/v1/webhooks/catalog/) lists them` });
    }
    if (!SUBSCRIBABLE_EVENT_TYPES.includes(type)) {
      throw invalid({ events: `"${type}" is not subscribable; POST /api/v1/webhooks/endpoints/{id}/test/ sends it` });
    }
  }
  return events;
}

/** The URL as it will be called, after the SSRF guard (url-guard.ts) accepted it. */
async function checkedUrl(ctx: AppContext, url: string): Promise<string> {
  try {
    const target = await checkTarget(url, {
      allowPrivate: ctx.config.webhooks.allowPrivateTargets,
      allowedPorts: ctx.config.webhooks.allowedPorts,
      resolve: webhookIo(ctx).resolve,
      // A name server that never answers must not hold the request open.
      signal: AbortSignal.timeout(SAVE_RESOLVE_TIMEOUT_MS),
    });
    return target.url.href;
  } catch (error) {
    if (error instanceof UnsafeTargetError)
      throw invalid({ url: error.message }, `The webhook URL is refused: ${error.message}.`);
    throw error;
  }
}

/**
 * The filter must run where the endpoint delivers: checked, and bound for the caller (who will
 * govern the endpoint) over its project or every project the caller sees. A blank filter is none.
 */
async function checkedFilter(
  ctx: AppContext,
  principal: Principal,
  filter: string | null,
  projectId: number | null,
): Promise<string | null> {
  if (filter === null || filter.trim() === '') return null;
  const visible = [...(await visibleProjectsOf(ctx.db, principal)).byId.values()];
  await bindFor(ctx, ctx.db, checkQuery(filter), {
    accountId: principal.userId,
    organizationId: principal.organizationId,
    projects: visible.filter((p) => projectId === null || p.id === projectId).map((p) => ({ id: p.id, key: p.key })),
    timeZone: 'UTC',
  });
  return filter;
}

export async function listEndpoints(ctx: AppContext, principal: Principal, page: PageRequest) {
  const { rows, pagination } = await repo.endpointsPage(ctx.db, principal, page);
  return { data: rows.map((row) => presentEndpoint(row)), pagination };
}

export const getEndpoint = visibleOne('Webhook endpoint', repo.findVisibleEndpoint, presentEndpoint).read;

type CreatedEndpointJson = ReturnType<typeof presentEndpoint> & { secret: string };

/** An endpoint checked and ready to be written: its URL passed the guard, its secret is encrypted. */
export interface CheckedEndpoint {
  url: string;
  description: string;
  events: string[];
  projectId: number | null;
  filter: string | null;
  format: WebhookFormat;
  secret: string;
  secretCiphertext: string;
}

/** Checks a new endpoint (events, project, URL) and makes its signing secret; writes nothing. */
export async function checkNewEndpoint(
  ctx: AppContext,
  principal: Principal,
  input: EndpointCreate,
): Promise<CheckedEndpoint> {
  const events = validateEvents(input.events ?? [...SUBSCRIBABLE_EVENT_TYPES]);
  const projectId = input.project == null ? null : await bindableProject(ctx.db, principal, input.project);
  if (projectId === null) authorizeSpanning(principal);
  const filter = await checkedFilter(ctx, principal, input.filter ?? null, projectId);
  const url = await checkedUrl(ctx, input.url);
  const secret = newSigningSecret();
  return {
    url,
    description: input.description ?? '',
    events,
    projectId,
    filter,
    format: input.format ?? 'json',
    secret,
    secretCiphertext: encryptSecret(await secretKey(ctx), secret),
  };
}

export async function createEndpoint(
  tx: Tx,
  principal: Principal,
  endpoint: CheckedEndpoint,
): Promise<CreatedEndpointJson> {
  const now = tx.clock.nowIso();
  const id = await repo.insertEndpoint(tx.db, {
    organization_id: principal.organizationId,
    created_by: principal.userId,
    governed_by: principal.userId,
    project_id: endpoint.projectId,
    url: endpoint.url,
    description: endpoint.description,
    events: JSON.stringify(endpoint.events),
    filter: endpoint.filter,
    format: endpoint.format,
    secret_ciphertext: endpoint.secretCiphertext,
    enabled: 1,
    disabled_reason: null,
    consecutive_failures: 0,
    created_at: now,
    updated_at: now,
  });
  const created = await getEndpoint(tx, principal, id);
  await recordAudit(tx, {
    organizationId: principal.organizationId,
    actor: principal,
    action: 'webhook.created',
    target: { type: 'webhook', id, label: created.url },
    projectId: created.project,
    after: auditedEndpoint(created),
  });
  return { ...created, secret: endpoint.secret };
}

/** The columns a change sets, checked (URL, events, project, permission); writes nothing. */
export type CheckedEndpointChanges = Partial<{
  url: string;
  description: string;
  events: string;
  project_id: number | null;
  filter: string | null;
  format: WebhookFormat;
  enabled: number;
  disabled_reason: string | null;
  consecutive_failures: number;
  governed_by: number;
}>;

export async function checkEndpointChanges(
  ctx: AppContext,
  principal: Principal,
  id: number,
  changes: EndpointChanges,
): Promise<CheckedEndpointChanges> {
  const current = await endpointFor(ctx.db, principal, id, 'manage');
  const set: CheckedEndpointChanges = {};
  if (changes.url !== undefined) set.url = await checkedUrl(ctx, changes.url);
  if (changes.description !== undefined) set.description = changes.description;
  if (changes.format !== undefined) set.format = changes.format;
  if (changes.events !== undefined) set.events = JSON.stringify(validateEvents(changes.events));
  if (changes.project !== undefined) {
    if (changes.project === null) authorizeSpanning(principal);
    set.project_id = changes.project === null ? null : await bindableProject(ctx.db, principal, changes.project);
  }
  if (changes.filter !== undefined)
    set.filter = await checkedFilter(
      ctx,
      principal,
      changes.filter,
      changes.project !== undefined ? (set.project_id ?? null) : current.project_id,
    );
  // Whoever chooses where events go, or which, answers for them: deliveries follow what this
  // account sees, and a filter is read as this account (`me()`).
  if (changes.url !== undefined || changes.events !== undefined || changes.filter !== undefined)
    set.governed_by = principal.userId;
  if (changes.enabled === true) {
    // Re-enabling (also after auto-disable) starts a fresh count of consecutive failures.
    Object.assign(set, { enabled: 1, disabled_reason: null, consecutive_failures: 0 });
  } else if (changes.enabled === false && current.enabled === 1) {
    Object.assign(set, { enabled: 0, disabled_reason: 'Disabled through the API.' });
  }
  return set;
}

export async function updateEndpoint(tx: Tx, principal: Principal, id: number, set: CheckedEndpointChanges) {
  const before = await repo.findVisibleEndpoint(tx.db, principal, id);
  await repo.updateEndpoint(tx.db, id, { ...set, updated_at: tx.clock.nowIso() });
  // The change must leave the caller able to see the endpoint: making it span projects
  // (or handing it to another account) must not reach projects the caller cannot see.
  const after = await repo.findVisibleEndpoint(tx.db, principal, id);
  if (!after)
    throw forbidden('The endpoint would deliver events of projects you cannot see; bind it to a project instead.');
  const presented = presentEndpoint(after);
  if (before) await auditEndpointChange(tx, principal, presentEndpoint(before), presented);
  return presented;
}

/** What an audit record keeps of an endpoint (never its secret). */
function auditedEndpoint(endpoint: ReturnType<typeof presentEndpoint>) {
  const { url, description, events, filter, format, project, enabled } = endpoint;
  return { url, description, events, filter, format, project, enabled };
}

/** Enabling and disabling are records of their own; any other change is `webhook.updated`. */
async function auditEndpointChange(
  tx: Tx,
  principal: Principal,
  before: ReturnType<typeof presentEndpoint>,
  after: ReturnType<typeof presentEndpoint>,
): Promise<void> {
  const audit = {
    organizationId: principal.organizationId,
    actor: principal,
    target: { type: 'webhook' as const, id: after.id, label: after.url },
    projectId: after.project,
  };
  const { enabled: wasEnabled, ...settingsBefore } = auditedEndpoint(before);
  const { enabled, ...settingsAfter } = auditedEndpoint(after);
  const changes = changedFields(settingsBefore, settingsAfter);
  if (hasChanges(changes)) await recordAudit(tx, { ...audit, action: 'webhook.updated', ...changes });
  if (enabled !== wasEnabled)
    await recordAudit(tx, {
      ...audit,
      action: enabled ? 'webhook.enabled' : 'webhook.disabled',
      before: { enabled: wasEnabled, reason: before.disabled_reason },
      after: { enabled, reason: after.disabled_reason },
    });
}

/** Deleting an endpoint deletes its delivery history with it. */
export async function deleteEndpoint(tx: Tx, principal: Principal, id: number): Promise<void> {
  const endpoint = await endpointFor(tx.db, principal, id, 'manage');
  await repo.deleteEndpoint(tx.db, id);
  await recordAudit(tx, {
    organizationId: principal.organizationId,
    actor: principal,
    action: 'webhook.deleted',
    target: { type: 'webhook', id, label: endpoint.url },
    projectId: endpoint.project_id,
    before: { url: endpoint.url, project: endpoint.project_id },
  });
}

/**
 * Sends `webhook.test` to this endpoint only. It is written to the outbox like any event (so
 * it is signed and sent from stored bytes and can be replayed) but marked fanned out at once,
 * and its delivery follows the normal schedule without ever counting toward auto-disable.
 */
export async function sendTestEvent(
  tx: Tx,
  principal: Principal,
  id: number,
  correlationId: string,
): Promise<DeliveryJson> {
  const endpoint = await endpointFor(tx.db, principal, id, 'manage');
  if (endpoint.enabled !== 1)
    throw new ApiError('ENDPOINT_DISABLED', 'The endpoint is disabled; re-enable it before sending a test.');
  const now = tx.clock.nowIso();
  const eventId = await recordEvent(tx.db, {
    type: 'webhook.test',
    origin: originFromPrincipal(principal, correlationId),
    projectId: endpoint.project_id,
    occurredAt: now,
    data: {
      endpoint: { id: endpoint.id, url: endpoint.url },
      message: 'A test event sent on request. Verify its signature, store it, and answer 2xx.',
    },
  });
  const deliveryId = await repo.insertDelivery(tx.db, {
    endpoint_id: endpoint.id,
    organization_id: principal.organizationId,
    outbox_id: await repo.markEventFannedOut(tx.db, eventId, now),
    event_id: eventId,
    event_type: 'webhook.test',
    is_test: 1,
    replay_of: null,
    now,
  });
  return getDelivery(tx, principal, deliveryId);
}

/** Checks a caller-computed signature with the endpoint's secret, in constant time. */
export async function verifySignature(
  ctx: AppContext,
  principal: Principal,
  input: { endpoint: number; timestamp: string; signature: string; payload: string },
) {
  const endpoint = await foundOr404(
    repo.findVisibleEndpointSecret(ctx.db, principal, input.endpoint),
    'Webhook endpoint',
  );
  const secret = decryptSecret(await secretKey(ctx), endpoint.secret_ciphertext);
  return { valid: signatureMatches(secret, input.timestamp, input.payload, input.signature) };
}
