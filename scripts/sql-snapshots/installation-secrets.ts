import * as repo from '../../src/crypto/installation-secrets.repository.ts';
import { snapshotsOf } from './record.ts';

export default snapshotsOf('crypto/installation-secrets.repository.ts', repo, {
  ensureInstallationSecret: ({ db }) =>
    repo.ensureInstallationSecret(db, 'webhook_secret_key', 'c2VjcmV0', '2026-11-21T09:00:00.000Z'),
});
