/**
 * Claiming: due deliveries get a lease (`locked_until`, `lease_token`) and an in-flight attempt
 * row, in one short transaction. A worker that dies before recording the outcome leaves a leased
 * row; once the lease passes it is due again, the orphaned attempt row is marked lost, and the
 * attempt is re-run with the same number.
 */
import { randomUUID } from 'node:crypto';
import { isoFromMs } from '../../../clock.ts';
import type { AppContext } from '../../../context.ts';
import { inTransaction } from '../../../db/unit-of-work.ts';
import type { WebhookFormat } from '../../../db/schema.ts';
import * as queue from './delivery-queue.repository.ts';

export const LOST_ATTEMPT_ERROR =
  'lost: the worker stopped before recording an outcome; the attempt was re-run after its lease expired';

export interface ClaimedAttempt {
  deliveryId: number;
  attemptId: number;
  attemptNumber: number;
  leaseToken: string;
  endpointId: number;
  url: string;
  /** What to POST: the envelope (`json`) or a chat message rendered from it. */
  format: WebhookFormat;
  secretCiphertext: string;
  eventId: string;
  isTest: boolean;
  /** The stored envelope: these exact bytes are signed and sent. */
  envelope: string;
}

/** Claims up to `limit` due deliveries, oldest first, leaving out those of `skipEndpoints`. */
export async function claimDueDeliveries(
  ctx: AppContext,
  limit: number,
  skipEndpoints: number[] = [],
): Promise<ClaimedAttempt[]> {
  return inTransaction(ctx, async (tx) => {
    const now = tx.clock.nowIso();
    const leaseToken = randomUUID();
    const lockedUntil = isoFromMs(tx.clock.nowMs() + tx.config.webhooks.leaseMs);
    const claimed = await queue.leaseDueDeliveries(tx.db, tx.dialect, {
      now,
      lockedUntil,
      leaseToken,
      limit,
      skipEndpoints,
    });
    if (claimed.length === 0) return [];

    await queue.markUnfinishedAttemptsLost(
      tx.db,
      claimed.map((c) => c.id),
      now,
      LOST_ATTEMPT_ERROR,
    );
    const attempts = await queue.insertAttempts(
      tx.db,
      claimed.map((c) => ({ deliveryId: c.id, number: c.attempts + 1 })),
      now,
    );
    const endpoints = await queue.endpointTargets(tx.db, [...new Set(claimed.map((c) => c.endpoint_id))]);
    const envelopes = await queue.outboxEnvelopes(tx.db, [...new Set(claimed.map((c) => c.outbox_id))]);

    const attemptOf = new Map(attempts.map((a) => [a.delivery_id, a.id]));
    const endpointOf = new Map(endpoints.map((e) => [e.id, e]));
    const envelopeOf = new Map(envelopes.map((e) => [e.id, e.envelope]));
    return claimed
      .sort((a, b) => a.id - b.id)
      .map((c) => {
        const endpoint = endpointOf.get(c.endpoint_id)!;
        return {
          deliveryId: c.id,
          attemptId: attemptOf.get(c.id)!,
          attemptNumber: c.attempts + 1,
          leaseToken,
          endpointId: c.endpoint_id,
          url: endpoint.url,
          format: endpoint.format,
          secretCiphertext: endpoint.secret_ciphertext,
          eventId: c.event_id,
          isTest: c.is_test === 1,
          envelope: envelopeOf.get(c.outbox_id)!,
        };
      });
  });
}
