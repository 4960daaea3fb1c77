import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp, type BuildAppOptions } from '../../src/app.ts';
import { ManualClock } from '../../src/clock.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { type AppContext, createAppContext } from '../../src/context.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import type { ProjectRole, WorkspaceRole } from '../../src/db/schema.ts';
import { addProjectMember, createOrganization, createUser } from '../../src/modules/accounts/accounts.service.ts';
import { createToken } from '../../src/identity/tokens.service.ts';
import { ALL_SCOPES } from '../../src/identity/scopes.ts';
import { freshDatabase } from './database.ts';
import { createLogger } from '../../src/logger.ts';
import type { DestinationStream } from 'pino';
import { enforceResponseContract } from './response-contract.ts';

export interface Response {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  // Tests assert on arbitrary JSON shapes.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

export interface Actor {
  accountId: number;
  token: string;
  tokenId: number;
  org: string;
}

export interface TestHarness {
  app: FastifyInstance;
  ctx: AppContext;
  clock: ManualClock;
  request(
    method: InjectOptions['method'],
    url: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  /** A new organization with one service account holding the given role and a token with the given scopes. */
  actor(options?: { org?: string; role?: WorkspaceRole; scopes?: string[]; projects?: string[] }): Promise<Actor>;
  /** Another token for an existing account. */
  tokenFor(
    accountId: number,
    scopes?: string[],
    projects?: string[],
    expiresInDays?: number,
  ): Promise<{ token: string; tokenId: number }>;
  /** Creates a project through the API as `actor` and returns its JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  project(actor: Actor, key: string, name?: string): Promise<any>;
  addMember(projectKey: string, accountId: number, role?: ProjectRole): Promise<void>;
  close(): Promise<void>;
}

let orgCounter = 0;

/** Settings to override; attachments default to a fresh temporary directory removed on close. */
export type ConfigOverrides = Partial<Omit<Config, 'attachments' | 'rateLimit'>> & {
  attachments?: Partial<Config['attachments']>;
  rateLimit?: Partial<Config['rateLimit']>;
};

/** Adds routes or hooks to the app before it starts. */
export type BeforeReady = (app: FastifyInstance, ctx: AppContext) => void;

export async function createHarness(
  options: {
    config?: ConfigOverrides;
    beforeReady?: BeforeReady;
    database?: DatabaseHandle;
    app?: Omit<BuildAppOptions, 'logger'>;
    /** Where the app logs (at info), for tests that read its lines; silent otherwise. */
    logTo?: DestinationStream;
  } = {},
): Promise<TestHarness> {
  const database = options.database ?? (await freshDatabase());
  const base = loadConfig({});
  const attachmentsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tasktracker-files-'));
  const config: Config = {
    ...base,
    ...options.config,
    rateLimit: {
      ...base.rateLimit,
      tokenBurst: 1_000_000,
      orgHourly: 1_000_000,
      searchPerMinute: 1_000_000,
      ...options.config?.rateLimit,
    },
    attachments: { ...base.attachments, dir: attachmentsDir, ...options.config?.attachments },
  };
  const clock = new ManualClock('2026-11-21T09:00:00Z');
  const ctx = createAppContext({ config, database, clock });
  const app = await buildApp(ctx, {
    ...options.app,
    logger: options.logTo ? createLogger('info', options.logTo) : false,
  });
  // Every answer of a published operation must be one the OpenAPI document describes.
  enforceResponseContract(app);
  options.beforeReady?.(app, ctx);
  await app.ready();

  const request: TestHarness['request'] = async (method, url, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const res = await app.inject({
      method,
      url,
      headers,
      ...(opts.body !== undefined ? { payload: opts.body as InjectOptions['payload'] } : {}),
    });
    let body: unknown;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.statusCode, headers: res.headers, body, text: res.body };
  };

  const tokenFor: TestHarness['tokenFor'] = async (accountId, scopes = ALL_SCOPES, projects, expiresInDays) => {
    const t = await createToken(ctx, {
      accountId,
      scopes,
      projectKeys: projects,
      expiresInHours: expiresInDays === undefined ? undefined : expiresInDays * 24,
    });
    return { token: t.token, tokenId: t.id };
  };

  return {
    app,
    ctx,
    clock,
    request,
    tokenFor,
    async actor({ org, role = 'admin', scopes = ALL_SCOPES, projects } = {}) {
      const slug = org ?? `org-${process.pid}-${++orgCounter}`;
      if (
        !org ||
        !(await ctx.db.selectFrom('organizations').select('id').where('slug', '=', slug).executeTakeFirst())
      ) {
        await createOrganization(ctx, { name: slug, slug });
      }
      const account = await createUser(ctx, { org: slug, kind: 'service', name: `bot-${++orgCounter}`, role });
      const t = await tokenFor(account.id, scopes, projects);
      return { accountId: account.id, token: t.token, tokenId: t.tokenId, org: slug };
    },
    async project(actor, key, name = `Project ${key}`) {
      const res = await request('POST', '/api/v1/projects/', { token: actor.token, body: { name, key } });
      if (res.status !== 201) throw new Error(`project create failed: ${res.status} ${res.text}`);
      return res.body.data;
    },
    async addMember(projectKey, accountId, role = 'member') {
      await addProjectMember(ctx, { projectKey, userId: accountId, role });
    },
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(attachmentsDir, { recursive: true, force: true });
    },
  };
}
