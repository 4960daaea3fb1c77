import type { Dialect, Executor } from '../../db/database.ts';
import type { StandupSettingsTable } from '../../db/schema.ts';

/** The stored form of the settings: days and questions as JSON text. */
export type StoredSettings = Pick<StandupSettingsTable, 'timezone' | 'days' | 'reminder_time' | 'questions'>;

export function findSettings(db: Executor, organizationId: number) {
  return db.selectFrom('standup_settings').selectAll().where('organization_id', '=', organizationId).executeTakeFirst();
}

/** Writes `defaults` as the organization's settings unless it has a row already. */
export async function ensureSettings(
  db: Executor,
  organizationId: number,
  defaults: StoredSettings,
  at: string,
): Promise<void> {
  await db
    .insertInto('standup_settings')
    .values({ organization_id: organizationId, ...defaults, updated_by: null, updated_at: at })
    .onConflict((oc) => oc.column('organization_id').doNothing())
    .execute();
}

/** Holds the organization's settings row until commit (PostgreSQL row lock; SQLite runs one transaction at a time). */
export async function lockSettings(db: Executor, dialect: Dialect, organizationId: number): Promise<void> {
  let lock = db.selectFrom('standup_settings').select('organization_id').where('organization_id', '=', organizationId);
  if (dialect === 'postgres') lock = lock.forUpdate();
  await lock.execute();
}

export async function updateSettings(
  db: Executor,
  organizationId: number,
  settings: StoredSettings,
  by: number,
  at: string,
): Promise<void> {
  await db
    .updateTable('standup_settings')
    .set({ ...settings, updated_by: by, updated_at: at })
    .where('organization_id', '=', organizationId)
    .execute();
}
