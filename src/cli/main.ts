import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import pino from 'pino';
import { createLogger } from '../logger.ts';
import { backupSqlite, restoreSqlite } from '../db/backup.ts';
import { dialectOf, sqliteFile } from '../db/database.ts';
import type { AppContext } from '../context.ts';
import { migrateToLatest, migrationStatus } from '../db/migrate.ts';
import { ApiError } from '../http/errors.ts';
import * as accounts from '../modules/accounts/accounts.service.ts';
import type { ProjectRole, WorkspaceRole } from '../db/schema.ts';
import { openContext } from './context.ts';
import { listNotifications } from '../modules/webhooks/notifications.ts';
import { inTransaction } from '../db/unit-of-work.ts';
import { invite, mailInvitation } from '../modules/people/invitations.service.ts';
import * as people from '../modules/people/people.service.ts';
import { createToken, listTokensFor, revokeToken } from '../identity/tokens.service.ts';
import { loadConfig, serviceBaseUrl } from '../config.ts';
import { SERVICE_VERSION } from '../version.ts';

const WORKSPACE_ROLES: WorkspaceRole[] = ['owner', 'admin', 'member', 'guest'];

/** The whole of standard input, without the line break a shell or `echo` adds. */
async function passwordFromStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Password (then Enter and Ctrl-D): ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/**
 * The operator CLI (the human side; never the HTTP API). Each command prints exactly one
 * JSON object on stdout and exits 0, or prints an error on stderr and exits non-zero.
 */
function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
}

/** `12h`, `30d`, or a bare number of days (as before hours were accepted): the number of hours. */
function duration(value: string): number {
  const match = /^([1-9][0-9]{0,5})([hd]?)$/.exec(value.trim());
  if (!match)
    throw new InvalidArgumentError('must be a number of hours or days, e.g. 12h, 30d (a bare number is days)');
  return Number(match[1]) * (match[2] === 'h' ? 1 : 24);
}

const list = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Runs one admin command against an opened context and prints its result. Admin commands
 * never migrate: they refuse a database whose schema is not this version's.
 */
function action<A extends unknown[]>(
  run: (ctx: AppContext, ...args: A) => Promise<unknown>,
  schema: 'current' | 'any' = 'current',
) {
  return async (...args: A) => {
    const ctx = await openContext(schema);
    try {
      process.stdout.write(`${JSON.stringify(await run(ctx, ...args))}\n`);
    } finally {
      await ctx.database.close();
    }
  };
}

const program = new Command('tasktracker')
  .description('tasktracker operator CLI')
  .version(SERVICE_VERSION)
  .showHelpAfterError();

program
  .command('migrate')
  .description('bring the database schema up to date')
  .option('--status', 'list applied and pending migrations without applying any')
  .action(
    action(async (ctx, opts: { status?: boolean }) => {
      if (!opts.status) return { applied: await migrateToLatest(ctx.database) };
      const { applied, pending, unknown } = await migrationStatus(ctx.database);
      return { applied, pending, ...(unknown.length > 0 ? { unknown } : {}) };
    }, 'any'),
  );

/** Backup and restore copy SQLite files; PostgreSQL has its own tools, named in the refusal. */
function sqliteDatabaseFor(command: 'backup' | 'restore'): { database: string; attachmentsDir: string } {
  const config = loadConfig();
  const attachmentsDir = path.resolve(config.attachments.dir);
  if (dialectOf(config.databaseUrl) === 'postgres') {
    const how =
      command === 'backup'
        ? 'back it up with pg_dump (pg_dump --format=custom --file=tasktracker.dump "$DATABASE_URL")'
        : 'restore with pg_restore into an empty database, every process stopped (pg_restore --no-owner --dbname=<url> tasktracker.dump)';
    throw new Error(
      `${command} copies a SQLite database, and DATABASE_URL names PostgreSQL: ${how}; keep the attachment files (ATTACHMENTS_DIR, ${attachmentsDir}) with the dump and WEBHOOK_SECRET_KEY with your secrets (docs/operating/backup.md)`,
    );
  }
  return { database: sqliteFile(config.databaseUrl), attachmentsDir };
}

program
  .command('backup')
  .description('copy the SQLite database consistently, also while the service runs')
  .argument('<file>', 'where to write the copy (a complete copy replaces an existing file)')
  .action(async (file: string) => {
    const { database, attachmentsDir } = sqliteDatabaseFor('backup');
    const result = await backupSqlite(database, file);
    process.stdout.write(`${JSON.stringify({ ...result, attachments_dir: attachmentsDir })}\n`);
  });

program
  .command('restore')
  .description('put a backup in place of the SQLite database (every process using it stopped)')
  .argument('<file>', 'a copy made by `tasktracker backup`')
  .action(async (file: string) => {
    const { database, attachmentsDir } = sqliteDatabaseFor('restore');
    const result = await restoreSqlite(file, database, new Date());
    process.stdout.write(`${JSON.stringify({ ...result, attachments_dir: attachmentsDir })}\n`);
  });

// The server and the demo load the whole application; admin commands stay fast without them.
program
  .command('serve')
  .description('run the HTTP API with the webhook worker and scheduler')
  .option(
    '--api-only',
    'run the HTTP API without the worker (as SERVE_ROLE=api), next to `tasktracker worker` processes',
  )
  .action(async (opts: { apiOnly?: boolean }) => {
    const { serve } = await import('./serve.ts');
    const ctx = await openContext('migrate');
    await serve(ctx, { api: true, worker: !opts.apiOnly && ctx.config.serveRole !== 'api' });
  });

program
  .command('worker')
  .description('run only the delivery worker and scheduler (to scale out)')
  .action(async () => {
    const { serve } = await import('./serve.ts');
    await serve(await openContext('migrate'), { api: false, worker: true });
  });

const org = program.command('org').description('organizations (workspaces)');
org
  .command('create')
  .requiredOption('--name <name>')
  .requiredOption('--slug <slug>')
  .action(action((ctx, opts: { name: string; slug: string }) => accounts.createOrganization(ctx, opts)));

const user = program.command('user').description('people (they sign in to the web app)');
user
  .command('create')
  .description('create a person; give them a password with set-password, or invite them instead')
  .requiredOption('--org <slug>')
  .requiredOption('--email <email>')
  .requiredOption('--name <name>')
  .requiredOption('--role <role>', 'owner|admin|member|guest')
  .action(
    action((ctx, opts: { org: string; email: string; name: string; role: WorkspaceRole }) =>
      accounts.createUser(ctx, { ...opts, email: opts.email.trim().toLowerCase(), kind: 'human' }),
    ),
  );
user
  .command('invite')
  .description('print a single-use invitation link (also e-mailed when SMTP_URL is set)')
  .requiredOption('--org <slug>')
  .requiredOption('--email <email>')
  .requiredOption('--role <role>', 'owner|admin|member|guest')
  .action(
    action(async (ctx, opts: { org: string; email: string; role: WorkspaceRole }) => {
      if (!WORKSPACE_ROLES.includes(opts.role))
        throw new InvalidArgumentError(`--role must be one of ${WORKSPACE_ROLES.join(', ')}`);
      const org = await accounts.findOrganization(ctx, opts.org);
      const recorded = await inTransaction(ctx, (tx) =>
        invite(tx, org, null, { email: opts.email, role: opts.role }, serviceBaseUrl(ctx.config)),
      );
      // stdout carries the command's one JSON answer: why an e-mail failed goes to stderr.
      return mailInvitation(ctx, createLogger(ctx.config.logLevel, pino.destination(2)), recorded);
    }),
  );
user
  .command('set-password')
  .description("set a person's password, read from standard input (their sessions end)")
  .requiredOption('--id <id>', 'user id', positiveInt)
  .action(action(async (ctx, opts: { id: number }) => people.setPassword(ctx, opts.id, await passwordFromStdin())));
user
  .command('list')
  .description('people and service accounts of an organization')
  .requiredOption('--org <slug>')
  .action(
    action(async (ctx, opts: { org: string }) => {
      const org = await accounts.findOrganization(ctx, opts.org);
      return { organization: org.slug, users: await people.listAllPeople(ctx, org.id) };
    }),
  );

program
  .command('service-account')
  .description('accounts that API tokens belong to')
  .command('create')
  .requiredOption('--org <slug>')
  .requiredOption('--name <name>')
  .requiredOption('--role <role>', 'admin|member|guest')
  .action(
    action((ctx, opts: { org: string; name: string; role: WorkspaceRole }) =>
      accounts.createUser(ctx, { ...opts, kind: 'service' }),
    ),
  );

const token = program.command('token').description('API tokens (shown once, stored hashed)');
token
  .command('create')
  .requiredOption('--account <id>', 'account id', positiveInt)
  .requiredOption('--scopes <list>', 'comma-separated, e.g. tasks:read,projects:write', list)
  .option('--projects <keys>', 'restrict the token to these project keys', list)
  .option('--expires-in <duration>', 'expire after this long: 12h, 30d (a bare number is days)', duration)
  .option('--name <name>', 'to recognise the token in lists')
  .action(
    action((ctx, opts: { account: number; scopes: string[]; projects?: string[]; expiresIn?: number; name?: string }) =>
      createToken(ctx, {
        accountId: opts.account,
        scopes: opts.scopes,
        projectKeys: opts.projects,
        expiresInHours: opts.expiresIn,
        name: opts.name,
      }),
    ),
  );
token
  .command('list')
  .description('live tokens (never the secret), with their last use')
  .option('--org <slug>', 'only this organization')
  .option('--account <id>', 'only this account', positiveInt)
  .action(
    action(async (ctx, opts: { org?: string; account?: number }) => {
      const org = opts.org ? await accounts.findOrganization(ctx, opts.org) : undefined;
      return { tokens: await listTokensFor(ctx, { organizationId: org?.id, accountId: opts.account }) };
    }),
  );
token
  .command('revoke')
  .requiredOption('--id <id>', 'token id', positiveInt)
  .action(action((ctx, opts: { id: number }) => revokeToken(ctx, opts.id)));

program
  .command('project')
  .description('project administration')
  .command('add-member')
  .requiredOption('--project <key>')
  .requiredOption('--user <id>', 'user or service account id', positiveInt)
  .option('--role <role>', 'admin|member|viewer', 'member')
  .action(
    action((ctx, opts: { project: string; user: number; role: ProjectRole }) =>
      accounts.addProjectMember(ctx, { projectKey: opts.project, userId: opts.user, role: opts.role }),
    ),
  );

program
  .command('notifications')
  .description('the notifications people received (every reason, an endpoint disabled among them), for the operator')
  .command('list')
  .option('--org <slug>', 'only this organization')
  .option('--limit <n>', 'newest first, at most this many', positiveInt, 50)
  .action(action((ctx, opts: { org?: string; limit: number }) => listNotifications(ctx, opts)));

program
  .command('demo')
  .description('create a demo workspace and print a token for it')
  .action(action(async (ctx) => (await import('./demo.ts')).createDemo(ctx)));

program.parseAsync(process.argv).catch((error: unknown) => {
  const message =
    error instanceof ApiError
      ? `${error.code}: ${error.message} ${JSON.stringify(error.details)}`
      : error instanceof Error
        ? error.message
        : String(error);
  process.stderr.write(`tasktracker: ${message}\n`);
  process.exit(1);
});
