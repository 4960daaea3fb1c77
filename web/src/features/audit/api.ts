import { infiniteQueryOptions } from '@tanstack/react-query';
import { call, qs } from '../../lib/http.ts';

// The organization audit log in the console API (docs/operating/audit.md), which the OpenAPI document leaves out.

/** The actions the log records, grouped as the filter offers them. */
export const AUDIT_ACTION_GROUPS: Array<{ label: string; actions: string[] }> = [
  { label: 'Sign-in', actions: ['sign_in.succeeded', 'sign_in.failed'] },
  {
    label: 'People',
    actions: [
      'person.invited',
      'person.invitation_revoked',
      'person.joined',
      'person.role_changed',
      'person.deactivated',
      'person.reactivated',
      'person.password_reset_issued',
      'service_account.created',
    ],
  },
  { label: 'Tokens', actions: ['token.created', 'token.revoked'] },
  {
    label: 'Webhooks',
    actions: ['webhook.created', 'webhook.updated', 'webhook.disabled', 'webhook.enabled', 'webhook.deleted'],
  },
  {
    label: 'Projects',
    actions: [
      'project.created',
      'project.updated',
      'project.deleted',
      'membership.added',
      'membership.changed',
      'membership.removed',
    ],
  },
  {
    label: 'Workflows and fields',
    actions: [
      'workflow.created',
      'workflow.updated',
      'workflow.deleted',
      'status.created',
      'status.updated',
      'status.deleted',
      'status.reordered',
      'transition.created',
      'transition.updated',
      'transition.deleted',
      'custom_field.created',
      'custom_field.updated',
      'custom_field.deleted',
    ],
  },
  { label: 'Organization', actions: ['organization.updated', 'settings.updated', 'oidc.mapping_changed'] },
];

export interface AuditRecord {
  id: number;
  occurred_at: string;
  action: string;
  actor: { id: number | null; name: string };
  via: { source: string; token_id: number | null; session_id: number | null };
  target: { type: string; id: number | null; name: string } | null;
  project: { id: number; key: string | null } | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  address: string | null;
  correlation_id: string;
}

export interface AuditFilters {
  actor: string;
  action: string;
  /** Days (YYYY-MM-DD) in this browser's time zone, both included. */
  from: string;
  to: string;
}

export const NO_FILTERS: AuditFilters = { actor: '', action: '', from: '', to: '' };

/** The filters as the API's query: a day's bounds are its local midnight and the next one. */
function params(filters: AuditFilters) {
  const midnight = (day: string, plusDays = 0) => {
    const [y, m, d] = day.split('-').map(Number);
    return new Date(y!, m! - 1, d! + plusDays).toISOString();
  };
  return {
    actor: filters.actor,
    action: filters.action,
    from: filters.from ? midnight(filters.from) : '',
    to: filters.to ? midnight(filters.to, 1) : '',
  };
}

export const exportUrl = (filters: AuditFilters, format: 'csv' | 'jsonl') =>
  `/api/console/audit/export/${qs({ ...params(filters), format })}`;

const PAGE = 50;

export const auditQuery = (filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: ['console', 'audit', filters] as const,
    initialPageParam: '',
    queryFn: async ({ pageParam, signal }) => {
      const page = await call<AuditRecord[]>(
        `/api/console/audit/${qs({ ...params(filters), limit: PAGE, cursor: pageParam })}`,
        { signal },
      );
      return {
        records: page.data,
        next: page.pagination?.has_more ? (page.pagination.next_cursor ?? null) : null,
      };
    },
    getNextPageParam: (last) => last.next,
  });
