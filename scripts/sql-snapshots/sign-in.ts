import * as repo from '../../src/identity/sign-in.repository.ts';
import { snapshotsOf } from './record.ts';

export default snapshotsOf('identity/sign-in.repository.ts', repo, {
  humansWithEmail: ({ db }) => repo.humansWithEmail(db, 'ada@example.test', { activeOnly: true }),
  findPersonWithOrganization: ({ db }) => repo.findPersonWithOrganization(db, 3),
});
