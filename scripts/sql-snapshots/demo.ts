import * as repo from '../../src/cli/demo.repository.ts';
import { snapshotsOf } from './record.ts';

export default snapshotsOf('cli/demo.repository.ts', repo, {
  findOrganizationBySlug: ({ db }) => repo.findOrganizationBySlug(db, 'demo'),
  findServiceAccountNamed: ({ db }) => repo.findServiceAccountNamed(db, 1, 'Demo Bot'),
  findUserByEmail: ({ db }) => repo.findUserByEmail(db, 1, 'owner@demo.example'),
});
