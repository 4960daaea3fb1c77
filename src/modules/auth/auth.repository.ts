import type { Executor } from '../../db/database.ts';

export function findTokenWithAccount(db: Executor, tokenHash: string) {
  return db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .innerJoin('organizations as o', 'o.id', 'u.organization_id')
    .select([
      't.id as token_id',
      't.scopes',
      't.project_ids',
      't.expires_at',
      't.revoked_at',
      'u.id as user_id',
      'u.name as user_name',
      'u.email as user_email',
      'u.kind as user_kind',
      'u.role',
      'u.active as user_active',
      'o.id as organization_id',
      'o.slug as organization_slug',
      'o.name as organization_name',
    ])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
}
