import { signatureMatches } from '@tasktracker/webhooks';
import type { AppContext } from '../../context.ts';
import { presentPage } from '../../db/present-page.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { decryptSecret, encryptSecret, newSigningSecret, secretKey } from '../../crypto/secret-box.ts';
import { EVENT_CATALOG, SUBSCRIBABLE_EVENT_TYPES } from '../../events/catalog.ts';
import { originFromPrincipal, recordEvent } from '../../events/record-event.ts';
import { ApiError, forbidden, foundOr404, invalid } from '../../http/errors.ts';
import type { PageRequest } from '../../http/pagination.ts';
import { authorizeSpanning, bindableProject, endpointFor } from '../../policy/index.ts';
import { visibleOne } from '../../policy/visible-one.ts';
import type { Principal } from '../auth/principal.ts';
import { type DeliveryJson, getDelivery } from './deliveries.service.ts';
import { webhookIo } from './io.ts';
import { checkTarget, UnsafeTargetError } from './url-guard.ts';
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
}

export interface EndpointChanges {
  url?: string;
  description?: string;
  events?: string[];
  project?: number | null;
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

export async function listEndpoints(ctx: AppContext, principal: Principal, page: PageRequest) {
  return presentPage(
    repo.endpointsVisibleTo(ctx.db, principal),
    page,
    {
      idColumn: 'e.id',
      orderable: { id: 'e.id', created_at: 'e.created_at', url: 'e.url' },
      defaultOrdering: 'id',
    },
    presentEndpoint,
  );
}

export const getEndpoint = visibleOne('Webhook endpoint', repo.findVisibleEndpoint, presentEndpoint).read;

type CreatedEndpointJson = ReturnType<typeof presentEndpoint> & { secret: string };

/** An endpoint checked and ready to be written: its URL passed the guard, its secret is encrypted. */
export interface CheckedEndpoint {
  url: string;
  description: string;
  events: string[];
  projectId: number | null;
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
  const url = await checkedUrl(ctx, input.url);
  const secret = newSigningSecret();
  return {
    url,
    description: input.description ?? '',
    events,
    projectId,
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
    secret_ciphertext: endpoint.secretCiphertext,
    enabled: 1,
    disabled_reason: null,
    consecutive_failures: 0,
    created_at: now,
    updated_at: now,
  });
  return { ...(await getEndpoint(tx, principal, id)), secret: endpoint.secret };
}

/** The columns a change sets, checked (URL, events, project, permission); writes nothing. */
export type CheckedEndpointChanges = Partial<{
  url: string;
  description: string;
  events: string;
  project_id: number | null;
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
  if (changes.events !== undefined) set.events = JSON.stringify(validateEvents(changes.events));
  // Whoever chooses where events go, or which, answers for them: deliveries follow what this account sees.
  if (changes.url !== undefined || changes.events !== undefined) set.governed_by = principal.userId;
  if (changes.project !== undefined) {
    if (changes.project === null) authorizeSpanning(principal);
    set.project_id = changes.project === null ? null : await bindableProject(ctx.db, principal, changes.project);
  }
  if (changes.enabled === true) {
    // Re-enabling (also after auto-disable) starts a fresh count of consecutive failures.
    Object.assign(set, { enabled: 1, disabled_reason: null, consecutive_failures: 0 });
  } else if (changes.enabled === false && current.enabled === 1) {
    Object.assign(set, { enabled: 0, disabled_reason: 'Disabled through the API.' });
  }
  return set;
}

export async function updateEndpoint(tx: Tx, principal: Principal, id: number, set: CheckedEndpointChanges) {
  await repo.updateEndpoint(tx.db, id, { ...set, updated_at: tx.clock.nowIso() });
  // The change must leave the caller able to see the endpoint: making it span projects
  // (or handing it to another account) must not reach projects the caller cannot see.
  const after = await repo.findVisibleEndpoint(tx.db, principal, id);
  if (!after)
    throw forbidden('The endpoint would deliver events of projects you cannot see; bind it to a project instead.');
  return presentEndpoint(after);
}

/** Deleting an endpoint deletes its delivery history with it. */
export async function deleteEndpoint(tx: Tx, principal: Principal, id: number): Promise<void> {
  await endpointFor(tx.db, principal, id, 'manage');
  await repo.deleteEndpoint(tx.db, id);
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
