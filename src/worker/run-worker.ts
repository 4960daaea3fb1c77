import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import { purgeExpiredIdempotencyKeys } from '../http/idempotency.ts';
import { deliverDue } from './deliver-due.ts';
import { fanOut } from './fan-out.ts';
import { purgeOldDeliveries } from './retention.ts';
import { emitDueSoon, escalateStuckTasks } from './scheduler.ts';
import { sweepOrphanedAttachmentFiles } from '../modules/attachments/attachment.files.ts';

export interface WorkerJob {
  name: string;
  /** Pause between passes when a pass found no more work. */
  intervalMs: number;
  /** One pass. Resolves true when it filled its batch, so the next pass starts at once. */
  run(ctx: AppContext, log: FastifyBaseLogger): Promise<boolean>;
}

const FAN_OUT_BATCH = 200;
const DELIVERY_BATCH = 25;
const SCHEDULER_BATCH = 200;

/**
 * Periodic jobs of the worker. Each job's state lives in the database and every job reads time
 * from `ctx.clock`, so any number of workers may run and tests call the jobs directly.
 */
export const WORKER_JOBS: WorkerJob[] = [
  { name: 'fan-out', intervalMs: 250, run: async (ctx) => (await fanOut(ctx, FAN_OUT_BATCH)) === FAN_OUT_BATCH },
  { name: 'deliver-due', intervalMs: 250, run: async (ctx, log) => (await deliverDue(ctx, log, DELIVERY_BATCH)) === DELIVERY_BATCH },
  { name: 'due-soon', intervalMs: 60_000, run: async (ctx) => (await emitDueSoon(ctx, SCHEDULER_BATCH)) === SCHEDULER_BATCH },
  { name: 'escalate-stuck-tasks', intervalMs: 60_000, run: async (ctx) => (await escalateStuckTasks(ctx, SCHEDULER_BATCH)) === SCHEDULER_BATCH },
  {
    name: 'purge-old-deliveries',
    intervalMs: 3_600_000,
    run: async (ctx) => {
      await purgeOldDeliveries(ctx);
      return false;
    },
  },
  {
    name: 'purge-idempotency-keys',
    intervalMs: 60_000,
    run: async (ctx) => {
      await purgeExpiredIdempotencyKeys(ctx);
      return false;
    },
  },
  {
    name: 'sweep-orphaned-attachment-files',
    intervalMs: 15 * 60_000,
    run: async (ctx) => {
      await sweepOrphanedAttachmentFiles(ctx);
      return false;
    },
  },
];

export interface RunningWorker {
  stop(): Promise<void>;
}

/** Warnings about webhook settings that are fine for development but not for production. */
export function warnAboutWebhookConfig(ctx: AppContext, log: FastifyBaseLogger): void {
  if (ctx.config.webhooks.allowPrivateTargets) {
    log.warn('WEBHOOK_ALLOW_PRIVATE_TARGETS is on: webhook URLs may use plain http and loopback or private addresses. Development and tests only.');
  }
  if (!ctx.config.webhooks.secretKey) {
    log.warn(
      'WEBHOOK_SECRET_KEY is not set: webhook signing secrets are encrypted with a key stored in the database itself. Set WEBHOOK_SECRET_KEY so a copy of the database does not reveal them.',
    );
  }
}

/** Runs every job in its own loop until stopped; a stop waits for passes in flight (an attempt lasts at most 5 s). */
export function startWorker(ctx: AppContext, log: FastifyBaseLogger, jobs: WorkerJob[] = WORKER_JOBS): RunningWorker {
  const stopping = new AbortController();
  const loop = async (job: WorkerJob) => {
    while (!stopping.signal.aborted) {
      let more = false;
      try {
        more = await job.run(ctx, log);
      } catch (err) {
        log.error({ err, job: job.name }, 'worker job failed');
      }
      if (!more) await sleep(job.intervalMs, undefined, { signal: stopping.signal }).catch(() => undefined);
    }
  };
  const loops = jobs.map(loop);
  log.info({ jobs: jobs.map((j) => j.name) }, 'worker started');
  return {
    async stop() {
      stopping.abort();
      await Promise.all(loops);
    },
  };
}
