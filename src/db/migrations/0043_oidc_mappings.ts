import type { MigrationContext } from './helpers.ts';

/**
 * The identity provider's group mapping as an owner edits it in Settings → Sign-in
 * (docs/operating/oidc.md, "Groups to roles"): one row per organization, which then replaces
 * OIDC_GROUPS_CLAIM, OIDC_ROLE_MAP and OIDC_PROJECT_MAP for it. The maps are JSON lists; a
 * project is named by its key, as in OIDC_PROJECT_MAP, so a project made later can be mapped.
 */
export async function up({ db }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('oidc_mappings')
    .addColumn('organization_id', 'integer', (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('groups_claim', 'text', (c) => c.notNull())
    .addColumn('role_map', 'text', (c) => c.notNull())
    .addColumn('project_map', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
}
