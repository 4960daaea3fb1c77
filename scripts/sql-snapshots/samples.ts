import type { PageRequest } from '../../src/http/pagination.ts';
import type { Principal } from '../../src/identity/principal.ts';

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

/** A list's first page in its default ordering, as a list endpoint without query parameters asks for it. */
export const firstPage: PageRequest = { mode: 'offset', limit: 50, offset: 0, ordering: undefined };
