import type { MigrationContext } from './helpers.ts';
import { withId } from './helpers.ts';

/**
 * OpenID Connect sign-in (docs/operating/oidc.md). `oidc_identities` links a person to the
 * provider's subject (`sub` of `issuer`) once they signed in, so a later change of e-mail at the
 * provider still finds them. `oidc_logins` holds each flow between the redirect to the provider
 * and its return: the SHA-256 of `state`, the `nonce` and the PKCE verifier, single use
 * (`used_at`), and for an owner's test sign-in the claims and mapping shown afterwards (`result`).
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await withId(dialect, db.schema.createTable('oidc_identities'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('oidc_identities_subject_key', ['issuer', 'subject'])
    .execute();
  await db.schema.createIndex('oidc_identities_user_idx').on('oidc_identities').column('user_id').execute();

  await withId(dialect, db.schema.createTable('oidc_logins'))
    .addColumn('state_hash', 'text', (c) => c.notNull().unique())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('next_path', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('result', 'text')
    .execute();
  await db.schema.createIndex('oidc_logins_expires_idx').on('oidc_logins').column('expires_at').execute();
}
