/**
 * Pacing: runs claimed attempts as a pipeline. Attempts start as soon as they are claimed (at
 * most ENDPOINT_CONCURRENCY per endpoint, so one slow receiver does not hold up the others), and
 * each outcome is queued for the next record transaction, which writes every outcome that
 * finished meanwhile. A pass claims more while earlier attempts are still running.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { attemptDelivery } from './delivery-attempt.ts';
import { type ClaimedAttempt, claimDueDeliveries } from './delivery-claims.ts';
import { type FinishedAttempt, RECORD_BATCH, recordOutcomes } from './delivery-outcomes.ts';

/** Attempts at one endpoint running at once; more wait in memory (the claim holds their lease). */
export const ENDPOINT_CONCURRENCY = 32;

/**
 * Endpoints with this many claimed, unfinished attempts are left out of the next claim. With a
 * claim of at most 50 more, an endpoint has at most 150 / 32 = 5 rounds of 5 s attempts
 * waiting: 25 s, inside the 60 s lease, so a slow endpoint's queue never outlives its leases.
 */
const ENDPOINT_BACKLOG = 100;

interface EndpointLane {
  running: number;
  waiting: ClaimedAttempt[];
}

export class DeliveryPump {
  private inFlight = 0;
  private readonly endpoints = new Map<number, EndpointLane>();
  private roomWaiters: Array<() => void> = [];
  private idleWaiters: Array<() => void> = [];
  private outcomes: Array<FinishedAttempt & { recorded: () => void }> = [];
  private recording = false;
  /**
   * The last claim came back short while busy endpoints were left out, so their due deliveries
   * may be waiting: the next pass claims again once half a backlog has finished.
   */
  backlogged = false;
  private finishedSinceClaim = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    private readonly batch: number,
    /** Claimed attempts not yet recorded, at most (plus one batch). */
    private readonly maxInFlight = 4 * batch,
  ) {}

  /** Waits for room, claims up to one batch and starts it; resolves with the number claimed. */
  async pass(): Promise<number> {
    // Not claiming again at once when backlogged: each claim scans the busy endpoints' due rows
    // only to leave them out.
    while (
      this.inFlight >= this.maxInFlight ||
      (this.backlogged && this.inFlight > 0 && this.finishedSinceClaim < ENDPOINT_BACKLOG / 2)
    ) {
      await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
    }
    this.finishedSinceClaim = 0;
    const busy = [...this.endpoints]
      .filter(([, e]) => e.running + e.waiting.length >= ENDPOINT_BACKLOG)
      .map(([id]) => id);
    const claims = await claimDueDeliveries(this.ctx, this.batch, busy);
    for (const claim of claims) this.start(claim);
    this.backlogged = claims.length < this.batch && busy.length > 0;
    return claims.length;
  }

  /** Resolves when every claimed attempt has run and its outcome is recorded. */
  async drain(): Promise<void> {
    while (this.inFlight > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private start(claim: ClaimedAttempt): void {
    this.inFlight += 1;
    let endpoint = this.endpoints.get(claim.endpointId);
    if (!endpoint) {
      endpoint = { running: 0, waiting: [] };
      this.endpoints.set(claim.endpointId, endpoint);
    }
    if (endpoint.running >= ENDPOINT_CONCURRENCY) endpoint.waiting.push(claim);
    else void this.attempt(claim, endpoint);
  }

  private async attempt(first: ClaimedAttempt, endpoint: EndpointLane): Promise<void> {
    endpoint.running += 1;
    for (let claim: ClaimedAttempt | undefined = first; claim; claim = endpoint.waiting.shift()) {
      // attemptDelivery turns every failure into an outcome; this keeps the pump's count right regardless.
      const result = await attemptDelivery(this.ctx, claim).catch((error: unknown) => ({
        status: null,
        error: String(error),
        body: null,
        durationMs: 0,
      }));
      void this.record({ claim, result });
    }
    endpoint.running -= 1;
    if (endpoint.running === 0) this.endpoints.delete(first.endpointId);
  }

  private async record(finished: FinishedAttempt): Promise<void> {
    await new Promise<void>((recorded) => {
      this.outcomes.push({ ...finished, recorded });
      if (!this.recording) void this.writeOutcomes();
    });
    this.inFlight -= 1;
    this.finishedSinceClaim += 1;
    this.roomWaiters.splice(0).forEach((wake) => wake());
    if (this.inFlight === 0) this.idleWaiters.splice(0).forEach((wake) => wake());
  }

  private async writeOutcomes(): Promise<void> {
    this.recording = true;
    // Outcomes of attempts finishing in the same turn share the first transaction.
    await nextTurn();
    while (this.outcomes.length > 0) {
      const batch = this.outcomes.splice(0, RECORD_BATCH);
      await this.recordBatch(batch);
      batch.forEach((f) => f.recorded());
    }
    this.recording = false;
  }

  private async recordBatch(batch: FinishedAttempt[]): Promise<void> {
    try {
      await recordOutcomes(this.ctx, this.log, batch);
    } catch (err) {
      // One outcome the database refuses must not take the others down with it.
      if (batch.length > 1) {
        for (const finished of batch) await this.recordBatch([finished]);
        return;
      }
      // Not recorded: the lease runs out and the attempt is made again (at least once).
      this.log.error({ err, delivery_id: batch[0]!.claim.deliveryId }, 'recording a delivery outcome failed');
    }
  }
}
