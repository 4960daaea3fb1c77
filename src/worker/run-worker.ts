import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import { purgeExpiredIdempotencyKeys } from '../http/idempotency.ts';
import { sweepOrphanedAttachmentFiles } from '../modules/attachments/attachment.files.ts';

export interface WorkerJob {
  name: string;
  intervalMs: number;
  run(ctx: AppContext): Promise<unknown>;
}

/** Periodic jobs of the worker process. Each job's state lives in the database, so any number of workers may run. */
export const WORKER_JOBS: WorkerJob[] = [
  { name: 'purge-idempotency-keys', intervalMs: 60_000, run: purgeExpiredIdempotencyKeys },
  { name: 'sweep-orphaned-attachment-files', intervalMs: 15 * 60_000, run: sweepOrphanedAttachmentFiles },
];

export interface RunningWorker {
  stop(): Promise<void>;
}

export function startWorker(ctx: AppContext, log: FastifyBaseLogger, jobs: WorkerJob[] = WORKER_JOBS): RunningWorker {
  let stopping = false;
  const inFlight = new Set<Promise<unknown>>();
  const timers = jobs.map((job) =>
    setInterval(() => {
      if (stopping) return;
      const run = job
        .run(ctx)
        .catch((err: unknown) => log.error({ err, job: job.name }, 'worker job failed'))
        .finally(() => inFlight.delete(run));
      inFlight.add(run);
    }, job.intervalMs),
  );
  log.info({ jobs: jobs.map((j) => j.name) }, 'worker started');
  return {
    async stop() {
      stopping = true;
      timers.forEach(clearInterval);
      await Promise.all(inFlight);
    },
  };
}
