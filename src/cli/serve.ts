import { buildApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { createLogger } from '../logger.ts';
import { startWorker, warnAboutWebhookConfig } from '../worker/run-worker.ts';

/** Runs the HTTP API and/or the worker until SIGTERM or SIGINT, then drains and closes the database. */
export async function serve(ctx: AppContext, parts: { api: boolean; worker: boolean }): Promise<void> {
  const log = createLogger(ctx.config.logLevel);
  warnAboutWebhookConfig(ctx, log);
  const app = parts.api ? await buildApp(ctx, { logger: log }) : null;
  const worker = parts.worker ? startWorker(ctx, app?.log ?? log) : null;
  if (app) await app.listen({ host: ctx.config.host, port: ctx.config.port });

  await new Promise<void>((resolve) => {
    const shutdown = (signal: string) => {
      log.info({ signal }, 'shutting down: draining in-flight requests');
      resolve();
    };
    process.once('SIGTERM', shutdown);
    process.once('SIGINT', shutdown);
  });
  // Fastify stops accepting, answers 503 to new requests and waits for in-flight ones.
  await app?.close();
  await worker?.stop();
  await ctx.database.close();
  log.info('stopped');
}
