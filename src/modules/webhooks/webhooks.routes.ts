import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { listOf, ok } from '../../http/envelope.ts';
import { commitNoContent } from '../../http/no-content.ts';
import { pageRequest } from '../../http/pagination.ts';
import { commitWrite } from '../../http/unit-of-work.ts';
import { Envelope, errorResponses, IdParams, ListEnvelope, PaginationQuery } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import * as deliveries from './deliveries.service.ts';
import * as endpoints from './endpoints.service.ts';
import {
  CatalogEntry,
  DeliveriesQuery,
  EndpointCreateBody,
  EndpointPatchBody,
  VerifyBody,
  VerifyResult,
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookEndpoint,
  WebhookEndpointCreated,
} from './webhooks.schemas.ts';

const tags = ['Webhooks'];
const endpoint = Envelope(Type.Ref(WebhookEndpoint));
const delivery = Envelope(Type.Ref(WebhookDelivery));

export const webhookModels = [
  CatalogEntry,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookDelivery,
  WebhookAttempt,
  WebhookDeliveryDetail,
  VerifyResult,
];

export function registerWebhookRoutes(app: Api, ctx: AppContext): void {
  app.get(
    '/api/v1/webhooks/catalog/',
    {
      schema: {
        tags,
        summary: 'The event catalog: every event type and whether it can be subscribed to',
        description:
          'A fixed definition returned whole (no pagination). Read event types from here rather than hard-coding them.',
        response: {
          200: Type.Object({ success: Type.Literal(true), data: Type.Array(Type.Ref(CatalogEntry)) }),
          ...errorResponses(),
        },
      },
      config: { scope: 'webhooks:read' },
    },
    async () => ok(endpoints.listCatalog()),
  );

  registerEndpointRoutes(app, ctx);
  registerDeliveryRoutes(app, ctx);

  app.post(
    '/api/v1/webhooks/verify/',
    {
      schema: {
        tags,
        summary: "Check a signature computed over a payload with an endpoint's secret",
        body: VerifyBody,
        response: { 200: Envelope(Type.Ref(VerifyResult)), ...errorResponses(404) },
      },
      config: { scope: 'webhooks:write' },
    },
    async (request) => ok(await endpoints.verifySignature(ctx, principalOf(request), request.body)),
  );
}

function registerEndpointRoutes(app: Api, ctx: AppContext): void {
  app.get(
    '/api/v1/webhooks/endpoints/',
    {
      schema: {
        tags,
        summary: 'List the webhook endpoints the caller can see',
        querystring: Type.Object(PaginationQuery),
        response: { 200: ListEnvelope(Type.Ref(WebhookEndpoint)), ...errorResponses() },
      },
      config: { scope: 'webhooks:read' },
    },
    async (request) => listOf(await endpoints.listEndpoints(ctx, principalOf(request), pageRequest(request.query))),
  );

  app.post(
    '/api/v1/webhooks/endpoints/',
    {
      schema: {
        tags,
        summary: 'Create a webhook endpoint (the response shows its signing secret, once)',
        body: EndpointCreateBody,
        response: { 201: Envelope(Type.Ref(WebhookEndpointCreated)), ...errorResponses(404) },
      },
      // An Idempotency-Key replay returns the secret again, so the stored copy is encrypted.
      config: { scope: 'webhooks:write', sealStoredResponse: true },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      // The URL's DNS check runs before the transaction, never inside it.
      const checked = await endpoints.checkNewEndpoint(ctx, principal, request.body);
      reply.code(201);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => endpoints.createEndpoint(tx, principal, checked),
        ok<Awaited<ReturnType<typeof endpoints.createEndpoint>>>,
      );
    },
  );

  app.get(
    '/api/v1/webhooks/endpoints/:id/',
    {
      schema: {
        tags,
        summary: 'Read a webhook endpoint',
        params: IdParams,
        response: { 200: endpoint, ...errorResponses(404) },
      },
      config: { scope: 'webhooks:read' },
    },
    async (request) => ok(await endpoints.getEndpoint(ctx, principalOf(request), request.params.id)),
  );

  app.patch(
    '/api/v1/webhooks/endpoints/:id/',
    {
      schema: {
        tags,
        summary: 'Change a webhook endpoint; {"enabled": true} re-enables it and resets its failure count',
        params: IdParams,
        body: EndpointPatchBody,
        response: { 200: endpoint, ...errorResponses(404) },
      },
      config: { scope: 'webhooks:write' },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const changes = await endpoints.checkEndpointChanges(ctx, principal, request.params.id, request.body);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => endpoints.updateEndpoint(tx, principal, request.params.id, changes),
        ok<Awaited<ReturnType<typeof endpoints.updateEndpoint>>>,
      );
    },
  );

  app.delete(
    '/api/v1/webhooks/endpoints/:id/',
    {
      schema: {
        tags,
        summary: 'Delete a webhook endpoint and its delivery history',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404) },
      },
      config: { scope: 'webhooks:write' },
    },
    async (request, reply) =>
      commitNoContent(ctx, reply, (tx) => endpoints.deleteEndpoint(tx, principalOf(request), request.params.id)),
  );

  app.post(
    '/api/v1/webhooks/endpoints/:id/test/',
    {
      schema: {
        tags,
        summary: 'Send a webhook.test event to this endpoint only',
        description: 'Creates a delivery that follows the normal retry schedule but never counts toward auto-disable.',
        params: IdParams,
        response: { 201: delivery, ...errorResponses(404, 409) },
      },
      config: { scope: 'webhooks:write' },
    },
    async (request, reply) => {
      reply.code(201);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => endpoints.sendTestEvent(tx, principalOf(request), request.params.id, request.id),
        ok<deliveries.DeliveryJson>,
      );
    },
  );
}

function registerDeliveryRoutes(app: Api, ctx: AppContext): void {
  app.get(
    '/api/v1/webhooks/deliveries/',
    {
      schema: {
        tags,
        summary: 'List deliveries of visible endpoints (newest first by default)',
        querystring: Type.Object({ ...PaginationQuery, ...DeliveriesQuery }),
        response: { 200: ListEnvelope(Type.Ref(WebhookDelivery)), ...errorResponses() },
      },
      config: { scope: 'webhooks:read' },
    },
    async (request) => {
      const { endpoint: endpointId, status, event_type } = request.query;
      return listOf(
        await deliveries.listDeliveries(
          ctx,
          principalOf(request),
          { endpoint: endpointId, status, event_type },
          pageRequest(request.query),
        ),
      );
    },
  );

  app.get(
    '/api/v1/webhooks/deliveries/:id/',
    {
      schema: {
        tags,
        summary: 'Read a delivery with its attempt history',
        params: IdParams,
        response: { 200: Envelope(Type.Ref(WebhookDeliveryDetail)), ...errorResponses(404) },
      },
      config: { scope: 'webhooks:read' },
    },
    async (request) => ok(await deliveries.getDeliveryDetail(ctx, principalOf(request), request.params.id)),
  );

  app.post(
    '/api/v1/webhooks/deliveries/:id/replay/',
    {
      schema: {
        tags,
        summary: 'Re-send a delivered or failed delivery: a new delivery of the original envelope bytes and event id',
        params: IdParams,
        response: { 201: delivery, ...errorResponses(404, 409) },
      },
      config: { scope: 'webhooks:write' },
    },
    async (request, reply) => {
      reply.code(201);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => deliveries.replayDelivery(tx, principalOf(request), request.params.id),
        ok<deliveries.DeliveryJson>,
      );
    },
  );
}
