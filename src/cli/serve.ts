import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { serviceBaseUrl } from '../config.ts';
import { inTransaction } from '../db/unit-of-work.ts';
import { warnAboutEmailedLinks } from '../mail/links.ts';
import { issueSetupToken } from '../modules/people/setup.service.ts';
import { buildApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { describeDatabase } from '../db/database.ts';
import { createLogger } from '../logger.ts';
import {
  type RunningWorker,
  startWorker,
  warnAboutWebhookConfig,
  WORKER_JOBS,
  type WorkerJob,
} from '../worker/run-worker.ts';
import { SERVICE_VERSION } from '../version.ts';
import { startWorkerHealth } from './worker-health.ts';

/** How long the worker may take to stop once the HTTP side has closed: its attempts last at most 5 s. */
const WORKER_STOP_SECONDS = 15;

export interface RunningServer {
  log: FastifyBaseLogger;
  app: FastifyInstance | null;
  worker: RunningWorker | null;
  workerHealth: Server | null;
}

/**
 * Starts the HTTP API and/or the worker. The worker starts only once the API is listening:
 * Fastify compiles every route schema while it gets ready, which blocks the event loop for
 * seconds, and an attempt started before that would spend its whole 5 s deadline waiting and
 * be recorded as a receiver timeout without a byte sent.
 */
export async function startServer(
  ctx: AppContext,
  parts: { api: boolean; worker: boolean },
  jobs: WorkerJob[] = WORKER_JOBS,
): Promise<RunningServer> {
  const log = createLogger(ctx.config.logLevel);
  ctx.database.health.useLogger(log);
  log.info({ version: SERVICE_VERSION, database: describeDatabase(ctx.config.databaseUrl) }, 'starting');
  warnAboutWebhookConfig(ctx, log);
  warnAboutEmailedLinks(ctx, log);
  const app = parts.api ? await buildApp(ctx, { logger: log }) : null;
  if (app) {
    await app.listen({ host: ctx.config.host, port: ctx.config.port });
    await announceSetup(ctx, log, (app.server.address() as AddressInfo).port);
  }
  const worker = parts.worker ? startWorker(ctx, app?.log ?? log, jobs) : null;
  if (!worker)
    log.info(
      { role: 'api' },
      'serving the API only: deliveries, notifications, the scheduler and retention need a `tasktracker worker` process',
    );
  const healthPort = ctx.config.workerHealthPort;
  const workerHealth = !app && healthPort !== null ? await startWorkerHealth(ctx, healthPort, log) : null;
  return { log, app, worker, workerHealth };
}

/** Runs the HTTP API and/or the worker until SIGTERM or SIGINT, then drains and closes the database. */
export async function serve(ctx: AppContext, parts: { api: boolean; worker: boolean }): Promise<void> {
  const { log, app, worker, workerHealth } = await startServer(ctx, parts);

  await new Promise<void>((resolve) => {
    const shutdown = (signal: string) => {
      log.info({ signal }, 'shutting down: draining in-flight requests');
      resolve();
    };
    process.once('SIGTERM', shutdown);
    process.once('SIGINT', shutdown);
  });
  // A step that never finishes must not keep a stopping process alive until its supervisor
  // kills it without a word: past the drain deadline and the worker's last attempt, it exits
  // saying what was still open.
  setTimeout(
    () => {
      log.error({ pending: process.getActiveResourcesInfo() }, 'shutdown did not finish in time: exiting');
      process.exit(1);
    },
    (ctx.config.shutdownTimeoutSeconds + WORKER_STOP_SECONDS) * 1000,
  ).unref();
  // New requests get 503 while in-flight ones finish, for at most SHUTDOWN_TIMEOUT_SECONDS.
  if (app) {
    const { cut } = await app.drainAndClose(ctx.config.shutdownTimeoutSeconds * 1000);
    if (cut)
      log.warn(
        { timeout_seconds: ctx.config.shutdownTimeoutSeconds },
        'shutdown deadline reached: requests still in flight were cut off',
      );
  }
  await worker?.stop();
  if (workerHealth) await new Promise((resolve) => workerHealth.close(resolve));
  await ctx.database.close();
  log.info('stopped');
  // Everything is closed; a timer or socket left behind is a leak to name, not a reason to run on.
  setTimeout(() => {
    log.warn({ pending: process.getActiveResourcesInfo() }, 'still open after stopping: exiting anyway');
    process.exit(0);
  }, 1000).unref();
}

/**
 * First run: with no organization yet, prints a single-use link that lets the first person
 * create the organization and its owner account in the browser (docs/people.md, "The first person").
 */
async function announceSetup(ctx: AppContext, log: FastifyBaseLogger, port: number): Promise<void> {
  const setup = await inTransaction(ctx, (tx) => issueSetupToken(tx));
  if (!setup) return;
  const setupUrl = `${serviceBaseUrl(ctx.config, port)}/setup#token=${setup.token}`;
  log.warn(
    { setup_url: setupUrl, expires_at: setup.expires_at },
    `No organization yet. Open ${setupUrl} to create it and its owner account (the link works once, until ${setup.expires_at}).`,
  );
}
