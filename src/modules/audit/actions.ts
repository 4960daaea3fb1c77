/**
 * Every action the organization audit log records (docs/operating/audit.md lists what each
 * one's before and after hold). A closed list: the log is filtered by it, and a new kind of
 * organization-level change adds its name here.
 */
export const AUDIT_ACTIONS = [
  'sign_in.succeeded',
  'sign_in.failed',
  'person.invited',
  'person.invitation_revoked',
  'person.joined',
  'person.role_changed',
  'person.deactivated',
  'person.reactivated',
  'person.password_reset_issued',
  'service_account.created',
  'token.created',
  'token.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.disabled',
  'webhook.enabled',
  'webhook.deleted',
  'project.created',
  'project.updated',
  'project.deleted',
  'membership.added',
  'membership.changed',
  'membership.removed',
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
  'organization.updated',
  'settings.updated',
  'oidc.mapping_changed',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What a record is about. */
export const AUDIT_TARGET_TYPES = [
  'person',
  'invitation',
  'token',
  'webhook',
  'project',
  'membership',
  'workflow',
  'status',
  'transition',
  'custom_field',
  'organization',
  'settings',
  'oidc_mapping',
] as const;

export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];
