/**
 * Why a notification comes (docs/api/notifications.md, "Reasons"), and what each person gets
 * for each reason unless they chose otherwise: every reason in the app; e-mail for the reasons
 * that ask something of the person.
 */
export const REASONS = [
  'assigned',
  'mentioned',
  'commented',
  'status_changed',
  'updated',
  'due_soon',
  'overdue',
  'blocked',
  'standup_reminder',
  'endpoint_disabled',
] as const;
export type Reason = (typeof REASONS)[number];

export interface Delivery {
  in_app: boolean;
  email: boolean;
}

const EMAILED_BY_DEFAULT: ReadonlySet<Reason> = new Set([
  'assigned',
  'mentioned',
  'standup_reminder',
  'endpoint_disabled',
]);

export function defaultDelivery(reason: Reason): Delivery {
  return { in_app: true, email: EMAILED_BY_DEFAULT.has(reason) };
}

export function isReason(value: string): value is Reason {
  return (REASONS as readonly string[]).includes(value);
}

/**
 * When one change gives a person several reasons (assigned and mentioned in one edit), they
 * get one notification, for the first of these they want delivered at all. The last two never
 * come with another.
 */
export const REASON_PRIORITY: readonly Reason[] = [
  'assigned',
  'mentioned',
  'blocked',
  'commented',
  'status_changed',
  'updated',
  'overdue',
  'due_soon',
  'standup_reminder',
  'endpoint_disabled',
];
