import { queryOptions } from '@tanstack/react-query';
import type { Notification, NotificationPreferences, NotificationReason } from '../../lib/api-types.ts';
import { call, get, patch, post, qs } from '../../lib/http.ts';

/** Everything about the reader's notifications lives under one prefix: a live change refreshes it all. */
export const notificationKeys = {
  all: ['notifications'] as const,
  unread: ['notifications', 'unread'] as const,
  list: (filter: InboxFilter) => ['notifications', 'list', filter] as const,
  preferences: ['notifications', 'preferences'] as const,
};

export interface InboxFilter {
  unread: boolean;
  reason: NotificationReason | '';
}

/** Why a notification came, as the app says it. */
export const reasonLabel: Record<NotificationReason, string> = {
  assigned: 'Assigned to you',
  mentioned: 'Mentioned you',
  commented: 'Comments',
  status_changed: 'Status changes',
  updated: 'Other changes',
  due_soon: 'Due soon',
  overdue: 'Overdue',
  blocked: 'Blocked',
  standup_reminder: 'Standup reminder',
  endpoint_disabled: 'Webhook endpoint disabled',
};

/** How many unread notifications the reader has: one row read, the count from the pagination. */
export const unreadCountQuery = queryOptions({
  queryKey: notificationKeys.unread,
  queryFn: async ({ signal }) => {
    const page = await call<Notification[]>('/api/v1/me/notifications/?unread=true&limit=1', { signal });
    return page.pagination?.count ?? page.data.length;
  },
});

/** The newest 200 notifications (the inbox shows no more at once). */
export const inboxQuery = (filter: InboxFilter) =>
  queryOptions({
    queryKey: notificationKeys.list(filter),
    queryFn: ({ signal }) =>
      get<Notification[]>(
        `/api/v1/me/notifications/${qs({ unread: filter.unread ? 'true' : null, reason: filter.reason, limit: 200 })}`,
        signal,
      ),
  });

export const markRead = (body: { ids: number[] } | { all: true }) =>
  post<{ read: number }>('/api/v1/me/notifications/read/', body);

export const preferencesQuery = queryOptions({
  queryKey: notificationKeys.preferences,
  queryFn: ({ signal }) => get<NotificationPreferences>('/api/v1/me/notification-preferences/', signal),
});

export const updatePreferences = (reason: NotificationReason, change: { in_app?: boolean; email?: boolean }) =>
  patch<NotificationPreferences>('/api/v1/me/notification-preferences/', { reasons: { [reason]: change } });
