import type { AppContext } from '../context.ts';
import { randomBytes, randomUUID } from 'node:crypto';
import { serviceBaseUrl } from '../config.ts';
import { setPassword } from '../modules/people/people.service.ts';
import { originFromPrincipal } from '../events/record-event.ts';
import { addProjectMember, createOrganization, createUser } from '../modules/accounts/accounts.service.ts';
import { createToken } from '../identity/tokens.service.ts';
import { authenticate } from '../identity/auth.service.ts';
import { ALL_SCOPES } from '../identity/scopes.ts';
import * as tasks from '../modules/tasks/task-lifecycle.service.ts';
import * as projects from '../modules/projects/projects.service.ts';
import { findProjectByKey, projectHasTasks } from '../modules/projects/projects.repository.ts';
import { inTransaction } from '../db/unit-of-work.ts';
import { findOrganizationBySlug, findServiceAccountNamed, findUserByEmail } from './demo.repository.ts';

const DEMO_SLUG = 'demo';
const DEMO_PROJECT = 'DEMO';
const DEMO_OWNER_EMAIL = 'owner@demo.example';
const DEMO_BOT = 'Demo Bot';

/** A ready-to-try workspace. Re-running reuses it and issues a fresh token. */
export async function createDemo(ctx: AppContext) {
  const org =
    (await findOrganizationBySlug(ctx.db, DEMO_SLUG)) ??
    (await createOrganization(ctx, { name: 'Demo Workspace', slug: DEMO_SLUG }));
  let bot = await findServiceAccountNamed(ctx.db, org.id, DEMO_BOT);
  const owner =
    (await findUserByEmail(ctx.db, org.id, DEMO_OWNER_EMAIL)) ??
    (await createUser(ctx, {
      org: DEMO_SLUG,
      kind: 'human',
      name: 'Demo Owner',
      email: DEMO_OWNER_EMAIL,
      role: 'owner',
    }));
  // A fresh generated password on every run, shown once: the demo owner signs in to the web app with it.
  const password = randomBytes(12).toString('base64url');
  await setPassword(ctx, owner.id, password);
  bot ??= await createUser(ctx, { org: DEMO_SLUG, kind: 'service', name: DEMO_BOT, role: 'admin' });

  const token = await createToken(ctx, { accountId: bot.id, scopes: ALL_SCOPES });
  let project = await findProjectByKey(ctx.db, org.id, DEMO_PROJECT);
  if (!project) {
    // As the API creates one: the bot becomes its admin, and it gets the default workflow.
    const principal = await authenticate(ctx.db, ctx.clock, `Bearer ${token.token}`);
    const caller = { principal, origin: originFromPrincipal(principal, `demo-${randomUUID()}`, 'app') };
    const input = { key: DEMO_PROJECT, name: 'Demo project', description: 'Created by `tasktracker demo`.' };
    project = await inTransaction(ctx, (tx) => projects.createProject(tx, caller, input));
  }
  await addProjectMember(ctx, { projectKey: DEMO_PROJECT, userId: bot.id, role: 'admin' });
  await addProjectMember(ctx, { projectKey: DEMO_PROJECT, userId: owner.id, role: 'admin' });

  if (!(await projectHasTasks(ctx.db, project.id))) await createDemoTasks(ctx, token.token);
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

/** A few tasks to look at, written through the task service as the demo bot (events and all). */
async function createDemoTasks(ctx: AppContext, token: string): Promise<void> {
  const principal = await authenticate(ctx.db, ctx.clock, `Bearer ${token}`);
  const caller = { principal, origin: originFromPrincipal(principal, `demo-${randomUUID()}`, 'app') };
  await inTransaction(ctx, async (tx) => {
    const board = await tasks.createTask(tx, caller, DEMO_PROJECT, {
      title: 'Set up the project board',
      description: 'Columns follow the workflow statuses.',
    });
    await tasks.updateTask(tx, caller, board.task.key, { status: 'In Progress' });
    await tasks.createTask(tx, caller, DEMO_PROJECT, {
      title: 'Fix the login redirect loop',
      task_type: 'Bug',
      priority: 'High',
      assignee: principal.userId,
    });
    const guide = await tasks.createTask(tx, caller, DEMO_PROJECT, {
      title: 'Write the API quickstart',
      task_type: 'Story',
    });
    await tasks.createSubtask(tx, caller, guide.task.key, { title: 'Explain cursor pagination' });
  });
}
