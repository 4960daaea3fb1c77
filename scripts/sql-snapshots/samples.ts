import type { Principal } from '../../src/modules/auth/principal.ts';

/** A caller restricted to two projects, so visibility filters show in the recorded SQL. */
export const principal: Principal = {
  tokenId: 5,
  userId: 3,
  userName: 'Ada',
  userEmail: 'ada@example.test',
  userKind: 'human',
  organizationId: 1,
  organizationSlug: 'acme',
  organizationName: 'Acme',
  role: 'member',
  scopes: ['tasks:read', 'tasks:write'],
  projectRestriction: [10, 11],
  expiresAt: null,
};
