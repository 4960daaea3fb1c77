import { ManualClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { type AppContext, createAppContext } from '../../src/context.ts';
import { inTransaction, type Tx } from '../../src/db/unit-of-work.ts';
import type { WorkspaceRole } from '../../src/db/schema.ts';
import { originFromPrincipal } from '../../src/events/record-event.ts';
import { ApiError } from '../../src/http/errors.ts';
import { createOrganization, createUser } from '../../src/modules/accounts/accounts.service.ts';
import { createToken } from '../../src/identity/tokens.service.ts';
import { authenticate } from '../../src/identity/auth.service.ts';
import { ALL_SCOPES } from '../../src/identity/scopes.ts';
import { createProject } from '../../src/modules/projects/projects.service.ts';
import type { Caller } from '../../src/identity/caller.ts';
import { freshDatabase } from './database.ts';

/**
 * Services over a fresh database, without the HTTP app: for domain rules whose HTTP tests
 * would only repeat request plumbing. Callers are real accounts with real tokens, so every
 * rule a route relies on (visibility, roles, scopes) holds here too.
 */
export interface ServiceWorld {
  ctx: AppContext;
  clock: ManualClock;
  /** Runs one service write in its own unit of work, as a route does. */
  run<R>(caller: Caller, work: (tx: Tx, caller: Caller) => Promise<R>): Promise<R>;
  /** A new organization with one account of `role`, as a caller. */
  caller(options?: { org?: string; role?: WorkspaceRole }): Promise<Caller & { org: string }>;
  /** A project created by `caller` (who becomes its admin), with the default workflow. */
  project(caller: Caller, key: string): Promise<{ id: number; key: string; workflow: number | null }>;
  close(): Promise<void>;
}

let counter = 0;

export async function serviceWorld(): Promise<ServiceWorld> {
  const database = await freshDatabase();
  const clock = new ManualClock('2026-11-21T09:00:00Z');
  const ctx = createAppContext({ config: loadConfig({}), database, clock });
  const run: ServiceWorld['run'] = (caller, work) => inTransaction(ctx, (tx) => work(tx, caller));
  return {
    ctx,
    clock,
    run,
    async caller({ org, role = 'admin' } = {}) {
      const slug = org ?? `svc-${process.pid}-${++counter}`;
      if (!org) await createOrganization(ctx, { name: slug, slug });
      const account = await createUser(ctx, { org: slug, kind: 'service', name: `bot-${++counter}`, role });
      const { token } = await createToken(ctx, { accountId: account.id, scopes: ALL_SCOPES });
      const principal = await authenticate(ctx.db, clock, `Bearer ${token}`);
      return { principal, origin: originFromPrincipal(principal, `svc-${counter}`), org: slug };
    },
    async project(caller, key) {
      const project = await run(caller, (tx) => createProject(tx, caller, { name: `Project ${key}`, key }));
      return { id: project.id, key: project.key, workflow: project.workflow };
    },
    close: () => database.close(),
  };
}

/** The code and details of the ApiError `work` is refused with, as a route would answer them; throws if it succeeds. */
export async function refusal(work: Promise<unknown>): Promise<{ code: string; details: unknown }> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, details: error.details };
    throw error;
  }
  throw new Error('expected the service to refuse');
}
