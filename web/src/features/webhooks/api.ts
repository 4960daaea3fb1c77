import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  WebhookCatalogEntry,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookEndpoint,
  WebhookEndpointCreated,
} from '../../lib/api-types.ts';
import { call, del, get, getAll, patch, post, qs } from '../../lib/http.ts';

export const webhookKeys = {
  catalog: ['webhooks', 'catalog'] as const,
  endpoints: ['webhooks', 'endpoints'] as const,
  deliveries: ['webhooks', 'deliveries'] as const,
  deliveriesOf: (endpoint: number, status: string, eventType: string, page: number) =>
    ['webhooks', 'deliveries', endpoint, status, eventType, page] as const,
  delivery: (id: number, attempts: number) => ['webhooks', 'delivery', id, attempts] as const,
};

export const catalogQuery = queryOptions({
  queryKey: webhookKeys.catalog,
  queryFn: ({ signal }) => get<WebhookCatalogEntry[]>('/api/v1/webhooks/catalog/', signal),
  staleTime: Infinity,
});

export const endpointsQuery = queryOptions({
  queryKey: webhookKeys.endpoints,
  queryFn: ({ signal }) => getAll<WebhookEndpoint>('/api/v1/webhooks/endpoints/', signal),
});

/** Deliveries per page of the log. */
export const DELIVERIES_PER_PAGE = 50;

/** One page of an endpoint's delivery log, newest first, with how many deliveries match in all. */
export const deliveriesQuery = (endpoint: number, status: string, eventType: string, page: number) =>
  queryOptions({
    queryKey: webhookKeys.deliveriesOf(endpoint, status, eventType, page),
    queryFn: async ({ signal }) => {
      // Offset pages: the API's cursor walks oldest first, and a log reads newest first.
      const result = await call<WebhookDelivery[]>(
        `/api/v1/webhooks/deliveries/${qs({ endpoint, status, event_type: eventType, limit: DELIVERIES_PER_PAGE, page })}`,
        { signal },
      );
      return { deliveries: result.data, count: result.pagination?.count ?? result.data.length };
    },
    // Attempts happen in the background; keep the log current while it is open.
    refetchInterval: 3000,
    // The page shown stays while the next one loads.
    placeholderData: keepPreviousData,
  });

/** A delivery with every attempt; keyed by the attempt count, so a new attempt reads it again. */
export const deliveryQuery = (id: number, attempts: number) =>
  queryOptions({
    queryKey: webhookKeys.delivery(id, attempts),
    queryFn: ({ signal }) => get<WebhookDeliveryDetail>(`/api/v1/webhooks/deliveries/${id}/`, signal),
  });

export type WebhookFormat = WebhookEndpoint['format'];
export type EndpointBody = {
  url: string;
  description: string;
  events?: string[];
  filter?: string | null;
  format?: WebhookFormat;
};

/** The formats an endpoint can post in, as the form names them. */
export const WEBHOOK_FORMATS: ReadonlyArray<{ value: WebhookFormat; label: string }> = [
  { value: 'json', label: 'JSON event' },
  { value: 'slack', label: 'Slack' },
  { value: 'discord', label: 'Discord' },
  { value: 'teams', label: 'Microsoft Teams' },
];
export const createEndpoint = (body: EndpointBody) => post<WebhookEndpointCreated>('/api/v1/webhooks/endpoints/', body);
export const updateEndpoint = (id: number, body: Partial<EndpointBody> & { enabled?: boolean }) =>
  patch<WebhookEndpoint>(`/api/v1/webhooks/endpoints/${id}/`, body);
export const deleteEndpoint = (id: number) => del(`/api/v1/webhooks/endpoints/${id}/`);
export const sendTest = (id: number) => post(`/api/v1/webhooks/endpoints/${id}/test/`);
export const replayDelivery = (id: number) => post(`/api/v1/webhooks/deliveries/${id}/replay/`);
