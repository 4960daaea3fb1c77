/**
 * Authorization in one place: what a caller can see (visibility.repository.ts, as SQL every repository
 * filters by) and what it may do there (authorize.ts). Routes and services ask these; none
 * decides by itself.
 */
export {
  type AccountAccess,
  type Action,
  type Actor,
  authorize,
  can,
  grantsFor,
  isWorkspaceAdmin,
  recordGrantsFor,
  type Grant,
  type ProjectAccess,
  type Resource,
  WORKSPACE,
} from './authorize.ts';
export {
  invitationIssuerMayStillGrant,
  issuableAccount,
  issuerAsNow,
  issuerMayStillIssue,
  linkIssuerMayStillIssue,
  roleRefusal,
  seesWholeDirectory,
} from './accounts.ts';
export { recheckGrants } from './grants.ts';
export { visibleProjectsOf } from '../identity/auth-cache.ts';
export { projectFor, readableProjectByKey, visibleAmongKeyed } from './projects.ts';
export { authorizeViewChange, authorizeViewShape, visibleViews } from './views.ts';
export { authorizeReplayTarget, authorizeSpanning, bindableProject, endpointFor } from './webhooks.ts';
export {
  findVisibleProjectRef,
  loadVisibleProjects,
  type ProjectRef,
  projectIdsOfAccount,
  visibleCustomFieldIds,
  visibleDeliveries,
  visibleEndpoints,
  visibleProjectIds,
  visibleProjectIdsOfPeople,
  visibleProjects,
  type VisibleProjects,
} from './visibility.repository.ts';
