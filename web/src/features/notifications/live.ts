import type { QueryClient } from '@tanstack/react-query';
import type { LiveChange } from '../../lib/live-change.ts';
import { notificationKeys } from './api.ts';

/** One of the reader's notifications came or was read (in any tab): the count and the inbox read again. */
export function applyNotificationChange(client: QueryClient, change: LiveChange): void {
  if (change.kind !== 'notification') return;
  void client.invalidateQueries({ queryKey: notificationKeys.unread });
  void client.invalidateQueries({ queryKey: ['notifications', 'list'] });
}
