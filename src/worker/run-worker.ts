import { setMaxListeners } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import { purgeExpiredIdempotencyKeys } from '../http/idempotency.ts';
import { isConnectionError } from '../db/connection-health.ts';
import { DeliveryPump } from '../modules/webhooks/delivery/delivery-pump.ts';
import { fanOut } from '../modules/webhooks/delivery/fan-out.ts';
import { notifyAboutEvents } from '../modules/notifications/notify.service.ts';
import { sendDueNotificationEmails } from '../modules/notifications/notification-mail.service.ts';
import { sendStandupDigests } from '../modules/notifications/standup-digest.ts';
import { purgeOldAuditRecords, purgeOldChanges, purgeOldDeliveries } from './retention.ts';
import { purgeEndedSessionsAndLinks } from '../identity/sessions.service.ts';
import { purgeEndedFlows } from '../modules/oidc/oidc.service.ts';
import { emitDueSoon, escalateStuckTasks, notifyOverdue } from './scheduler.ts';
import { sweepOrphanedAttachmentFiles } from '../modules/attachments/attachment.files.ts';

export interface WorkerJob {
  name: string;
  /** Pause between passes when a pass found no more work (another job may cut it short). */
  intervalMs: number;
  /** Starts the job in one worker; its loop calls `pass` until the worker stops, then `close`. */
  start(ctx: AppContext, log: FastifyBaseLogger, wake: (job: string) => void): JobRun;
}

export interface JobRun {
  /** One pass. Resolves true when it filled its batch, so the next pass starts at once. */
  pass(): Promise<boolean>;
  /** Finishes work the passes left running. */
  close?(): Promise<void>;
}

const FAN_OUT_BATCH = 200;
const NOTIFY_BATCH = 200;
/** Pauses of a job while the database is unreachable, growing with each failed pass. */
const RETRY_MS = [250, 500, 1000, 2000, 5000];
const DELIVERY_BATCH = 50;
const SCHEDULER_BATCH = 200;

/** A job whose passes keep no state between them. */
function stateless(run: (ctx: AppContext, log: FastifyBaseLogger) => Promise<boolean>): WorkerJob['start'] {
  return (ctx, log) => ({ pass: () => run(ctx, log) });
}

/** A stateless job whose one pass does all there is to do, so it never asks to run again at once. */
function sweep(name: string, intervalMs: number, run: (ctx: AppContext) => Promise<unknown>): WorkerJob {
  return {
    name,
    intervalMs,
    start: stateless(async (ctx) => {
      await run(ctx);
      return false;
    }),
  };
}

/**
 * Periodic jobs of the worker. Each job's state lives in the database and every job reads time
 * from `ctx.clock`, so any number of workers may run and tests call the jobs directly.
 */
export const WORKER_JOBS: WorkerJob[] = [
  {
    name: 'fan-out',
    intervalMs: 250,
    start: (ctx, _log, wake) => ({
      async pass() {
        const events = await fanOut(ctx, FAN_OUT_BATCH);
        // New deliveries are due now: the delivery loop need not sleep out its interval.
        if (events > 0) wake('deliver-due');
        return events === FAN_OUT_BATCH;
      },
    }),
  },
  {
    name: 'notify',
    intervalMs: 250,
    start: stateless(async (ctx) => (await notifyAboutEvents(ctx, NOTIFY_BATCH)) >= NOTIFY_BATCH),
  },
  {
    name: 'notification-mail',
    intervalMs: 5_000,
    start: stateless(async (ctx, log) => (await sendDueNotificationEmails(ctx, log, NOTIFY_BATCH)) === NOTIFY_BATCH),
  },
  {
    name: 'deliver-due',
    intervalMs: 250,
    start: (ctx, log) => {
      // Attempts run on while the next batch is claimed; stopping waits for them to be recorded.
      const pump = new DeliveryPump(ctx, log, DELIVERY_BATCH);
      return {
        pass: async () => (await pump.pass()) === DELIVERY_BATCH || pump.backlogged,
        close: async () => {
          await pump.drain();
          ctx.state.connectionPools.close();
        },
      };
    },
  },
  {
    name: 'due-soon',
    intervalMs: 60_000,
    start: stateless(async (ctx) => (await emitDueSoon(ctx, SCHEDULER_BATCH)) === SCHEDULER_BATCH),
  },
  {
    name: 'overdue',
    intervalMs: 60_000,
    start: stateless(async (ctx) => (await notifyOverdue(ctx, SCHEDULER_BATCH)) === SCHEDULER_BATCH),
  },
  {
    name: 'standup-digest',
    intervalMs: 60_000,
    start: stateless(async (ctx) => (await sendStandupDigests(ctx, SCHEDULER_BATCH)) === SCHEDULER_BATCH),
  },
  {
    name: 'escalate-stuck-tasks',
    intervalMs: 60_000,
    start: stateless(async (ctx) => (await escalateStuckTasks(ctx, SCHEDULER_BATCH)) === SCHEDULER_BATCH),
  },
  sweep('purge-old-deliveries', 3_600_000, purgeOldDeliveries),
  // Deletes in batches: a full batch runs the next one at once.
  { name: 'purge-old-changes', intervalMs: 3_600_000, start: stateless(purgeOldChanges) },
  { name: 'purge-old-audit-records', intervalMs: 3_600_000, start: stateless(purgeOldAuditRecords) },
  sweep('purge-idempotency-keys', 60_000, purgeExpiredIdempotencyKeys),
  sweep('purge-ended-sessions', 3_600_000, purgeEndedSessionsAndLinks),
  sweep('purge-ended-oidc-flows', 3_600_000, purgeEndedFlows),
  sweep('sweep-orphaned-attachment-files', 15 * 60_000, sweepOrphanedAttachmentFiles),
];

export interface RunningWorker {
  stop(): Promise<void>;
}

/** Warnings about webhook settings that are fine for development but not for production. */
export function warnAboutWebhookConfig(ctx: AppContext, log: FastifyBaseLogger): void {
  if (ctx.config.webhooks.allowPrivateTargets) {
    log.warn(
      'WEBHOOK_ALLOW_PRIVATE_TARGETS is on: webhook URLs may use plain http and loopback or private addresses. Development and tests only.',
    );
  }
  if (!ctx.config.webhooks.secretKey) {
    log.warn(
      'WEBHOOK_SECRET_KEY is not set: webhook signing secrets are encrypted with a key stored in the database itself. Set WEBHOOK_SECRET_KEY so a copy of the database does not reveal them.',
    );
  }
}

/** Runs every job in its own loop until stopped; a stop waits for passes and attempts in flight (an attempt lasts at most 5 s). */
export function startWorker(ctx: AppContext, log: FastifyBaseLogger, jobs: WorkerJob[] = WORKER_JOBS): RunningWorker {
  const stopping = new AbortController();
  // Each job's pause listens for the stop: more jobs than Node's default warning threshold is no leak.
  setMaxListeners(jobs.length + 1, stopping.signal);
  // Ends a job's pause early; a wake during a pass makes the next pass start at once.
  const wakers = new Map<string, { woken: boolean; wake: (() => void) | null }>(
    jobs.map((job) => [job.name, { woken: false, wake: null }]),
  );
  const wake = (name: string) => {
    const waker = wakers.get(name);
    if (!waker) return;
    waker.woken = true;
    waker.wake?.();
  };
  const pause = (job: WorkerJob, atLeastMs = 0) => {
    const waker = wakers.get(job.name)!;
    // A pass that ends after the stop must not wait out its interval: the abort has fired already.
    if (stopping.signal.aborted || (waker.woken && !atLeastMs)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stopping.signal.removeEventListener('abort', done);
        waker.wake = null;
        resolve();
      };
      const timer = setTimeout(done, Math.max(job.intervalMs, atLeastMs));
      stopping.signal.addEventListener('abort', done, { once: true });
      waker.wake = done;
    });
  };
  const loop = async (job: WorkerJob) => {
    const run = job.start(ctx, log, wake);
    let unreachable = 0;
    while (!stopping.signal.aborted) {
      wakers.get(job.name)!.woken = false;
      let more = false;
      try {
        more = await run.pass();
        unreachable = 0;
      } catch (err) {
        // The pool logs an outage once (src/db/connection-health.ts); the job retries, less often the longer it lasts.
        if (isConnectionError(err)) {
          ctx.database.health.lost(err);
          await pause(job, RETRY_MS[Math.min(unreachable++, RETRY_MS.length - 1)]!);
          continue;
        }
        log.error({ err, job: job.name }, 'worker job failed');
      }
      if (!more) await pause(job);
    }
    await run.close?.();
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
