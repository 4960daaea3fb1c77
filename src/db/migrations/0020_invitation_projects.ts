import type { MigrationContext } from './helpers.ts';

/**
 * The projects an invitation adds its person to, each with a project role: accepting it makes
 * those memberships, so an invited person lands on their team's board rather than on an empty
 * workspace. A project deleted meanwhile drops out of the invitation.
 */
export async function up({ db }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('invitation_projects')
    .addColumn('invitation_id', 'integer', (c) => c.notNull().references('invitations.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('invitation_projects_pkey', ['invitation_id', 'project_id'])
    .execute();
  // Deleting a project finds its rows by this index.
  await db.schema
    .createIndex('invitation_projects_project_idx')
    .on('invitation_projects')
    .column('project_id')
    .execute();
}
