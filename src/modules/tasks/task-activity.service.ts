import type { AppContext } from '../../context.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { activitiesPage } from './task-activity.repository.ts';
import { visibleTask } from './task.service.ts';

const parsed = (value: string | null): unknown => (value === null ? null : (JSON.parse(value) as unknown));

/** A task's activity: its creation, every field change, comments and links (newest first by default). */
export async function listActivities(ctx: AppContext, principal: Principal, key: string, page: PageRequest) {
  const ref = await visibleTask(ctx, principal, key);
  const { rows, pagination } = await activitiesPage(ctx.db, principal, ref.id, page);
  const data = rows.map((r) => ({
    id: r.id,
    action: r.action,
    field: r.field,
    from: parsed(r.from_value),
    to: parsed(r.to_value),
    actor: r.actor_id === null ? null : { id: r.actor_id, name: r.actor_name! },
    created_at: r.created_at,
  }));
  return { data, pagination };
}
