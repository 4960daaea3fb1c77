import type { AppContext } from '../../context.ts';
import { authEpoch } from '../../identity/auth.repository.ts';
import { visibleProjectIdsOfPeople } from '../../policy/index.ts';
import { sessionStates } from '../../identity/sessions.repository.ts';
import { sessionExpiresAt } from '../../identity/sessions.service.ts';

/**
 * Who the open streams of a process are for, as of each read: which sessions may still
 * stream (one query for all of them) and which projects each person sees (one query for all
 * of them, again only when the auth epoch moved: every change to memberships, roles or
 * accounts moves it, see src/identity/auth-cache.ts). The cost of a read does not grow
 * with the number of streams.
 */
export class LiveAudience {
  private epoch: number | null = null;
  private visible = new Map<number, Set<number>>();

  constructor(private readonly ctx: AppContext) {}

  /** The sessions among `ids` that may still stream: not revoked, not expired, their person active. */
  async openSessions(ids: number[]): Promise<Set<number>> {
    const open = new Set<number>();
    if (ids.length === 0) return open;
    const now = this.ctx.clock.nowIso();
    for (const row of await sessionStates(this.ctx.db, ids)) {
      if (row.revoked_at === null && row.user_active === 1 && sessionExpiresAt(this.ctx, row) > now) open.add(row.id);
    }
    return open;
  }

  /** Each person's visible project ids, reloaded when the auth epoch moved or a person is new. */
  async projectsOf(userIds: number[]): Promise<Map<number, Set<number>>> {
    const [row] = await authEpoch(this.ctx.db).execute();
    const epoch = row ? Number(row.value) : null;
    if (epoch === null || epoch !== this.epoch || userIds.some((id) => !this.visible.has(id))) {
      const visible = new Map<number, Set<number>>(userIds.map((id) => [id, new Set<number>()]));
      for (const { user_id, project_id } of await visibleProjectIdsOfPeople(this.ctx.db, userIds))
        visible.get(user_id)?.add(project_id);
      this.visible = visible;
      this.epoch = epoch;
    }
    return this.visible;
  }
}
