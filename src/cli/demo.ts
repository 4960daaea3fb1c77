import type { AppContext } from '../context.ts';
import { randomBytes, randomUUID } from 'node:crypto';
import { serviceBaseUrl } from '../config.ts';
import { setPassword } from '../modules/people/people.service.ts';
import { originFromPrincipal } from '../events/record-event.ts';
import { addProjectMember, createOrganization, createToken, createUser } from '../modules/accounts/accounts.service.ts';
import { authenticate } from '../modules/auth/auth.service.ts';
import { ALL_SCOPES } from '../modules/auth/scopes.ts';
import { inTransaction } from '../db/unit-of-work.ts';
import * as tasks from '../modules/tasks/task-lifecycle.service.ts';
import { provisionProjectDefaults } from '../modules/workflows/defaults.ts';

const DEMO_SLUG = 'demo';
const DEMO_PROJECT = 'DEMO';
const DEMO_OWNER_EMAIL = 'owner@demo.example';

/** A ready-to-try workspace. Re-running reuses it and issues a fresh token. */
export async function createDemo(ctx: AppContext) {
  const existing = await ctx.db.selectFrom('organizations').select(['id', 'slug', 'name']).where('slug', '=', DEMO_SLUG).executeTakeFirst();
  const org = existing ?? (await createOrganization(ctx, { name: 'Demo Workspace', slug: DEMO_SLUG }));

  let bot = await ctx.db
    .selectFrom('users')
    .select(['id', 'name'])
    .where('organization_id', '=', org.id)
    .where('kind', '=', 'service')
    .where('name', '=', 'Demo Bot')
    .executeTakeFirst();
  const owner =
    (await ctx.db.selectFrom('users').select('id').where('organization_id', '=', org.id).where('email', '=', DEMO_OWNER_EMAIL).executeTakeFirst()) ??
    (await createUser(ctx, { org: DEMO_SLUG, kind: 'human', name: 'Demo Owner', email: DEMO_OWNER_EMAIL, role: 'owner' }));
  // A fresh generated password on every run, shown once: the demo owner signs in to the web app with it.
  const password = randomBytes(12).toString('base64url');
  await setPassword(ctx, owner.id, password);
  bot ??= await createUser(ctx, { org: DEMO_SLUG, kind: 'service', name: 'Demo Bot', role: 'admin' });

  let project = await ctx.db
    .selectFrom('projects')
    .select(['id', 'key'])
    .where('organization_id', '=', org.id)
    .where('key', '=', DEMO_PROJECT)
    .executeTakeFirst();
  if (!project) {
    const now = ctx.clock.nowIso();
    project = await ctx.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('projects')
        .values({
          organization_id: org.id,
          key: DEMO_PROJECT,
          name: 'Demo project',
          description: 'Created by `tasktracker demo`.',
          task_counter: 0,
          created_by: bot.id,
          created_at: now,
          updated_at: now,
        })
        .returning(['id', 'key'])
        .executeTakeFirstOrThrow();
      await provisionProjectDefaults(trx, row.id, now);
      return row;
    });
  }
  await addProjectMember(ctx, { projectKey: DEMO_PROJECT, userId: bot.id, role: 'admin' });
  await addProjectMember(ctx, { projectKey: DEMO_PROJECT, userId: owner.id, role: 'admin' });

  const token = await createToken(ctx, { accountId: bot.id, scopes: ALL_SCOPES });
  if (!(await ctx.db.selectFrom('tasks').select('id').where('project_id', '=', project.id).executeTakeFirst())) {
    await createDemoTasks(ctx, token.token);
  }
  const baseUrl = serviceBaseUrl(ctx.config);
  return {
    token: token.token,
    token_id: token.id,
    base_url: baseUrl,
    organization: org.slug,
    account: { id: bot.id, name: bot.name },
    project: project.key,
    sign_in: { url: `${baseUrl}/`, email: DEMO_OWNER_EMAIL, password },
    try: `curl -s -H "Authorization: Bearer ${token.token}" ${baseUrl}/api/v1/me/`,
  };
}

/**
 * The URL `serve` is reached at with the same settings: PUBLIC_BASE_URL when set, else HOST
 * and PORT (a wildcard address is reached through localhost).
 */
/** A few tasks to look at, written through the task service as the demo bot (events and all). */
async function createDemoTasks(ctx: AppContext, token: string): Promise<void> {
  const principal = await authenticate(ctx.db, ctx.clock, `Bearer ${token}`);
  const caller = { principal, origin: originFromPrincipal(principal, `demo-${randomUUID()}`, 'app') };
  await inTransaction(ctx, async (tx) => {
    const board = await tasks.createTask(tx, caller, DEMO_PROJECT, { title: 'Set up the project board', description: 'Columns follow the workflow statuses.' });
    await tasks.updateTask(tx, caller, board.task.key, { status: 'In Progress' });
    await tasks.createTask(tx, caller, DEMO_PROJECT, {
      title: 'Fix the login redirect loop',
      task_type: 'Bug',
      priority: 'High',
      assignee: principal.userId,
    });
    const guide = await tasks.createTask(tx, caller, DEMO_PROJECT, { title: 'Write the API quickstart', task_type: 'Story' });
    await tasks.createSubtask(tx, caller, guide.task.key, { title: 'Explain cursor pagination' });
  });
}
