/**
 * Time source for everything that stamps or schedules. Injected so tests can move time
 * (24 h idempotency expiry, retry schedules) without sleeping.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  nowMs(): number;
  /** ISO 8601 UTC with microseconds, e.g. 2026-11-21T10:15:30.123456Z. */
  nowIso(): string;
}

/** Formats epoch microseconds as ISO 8601 UTC with six fractional digits and `Z`. */
export function isoFromMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const extra = Math.floor(micros - ms * 1000);
  return new Date(ms).toISOString().replace('Z', `${String(extra).padStart(3, '0')}Z`);
}

export function isoFromMs(ms: number): string {
  return isoFromMicros(ms * 1000);
}

export const systemClock: Clock = {
  nowMs: () => Date.now(),
  // Date has millisecond precision; the sub-millisecond digits come from the monotonic clock.
  nowIso: () => isoFromMicros(Date.now() * 1000 + Number((process.hrtime.bigint() / 1000n) % 1000n)),
};

export class ManualClock implements Clock {
  private micros: number;

  constructor(start: string | Date = '2026-01-01T00:00:00Z') {
    this.micros = new Date(start).getTime() * 1000;
  }

  nowMs(): number {
    return Math.floor(this.micros / 1000);
  }

  nowIso(): string {
    // Every reading advances one microsecond, so stamps stay distinct as on a real clock.
    this.micros += 1;
    return isoFromMicros(this.micros);
  }

  advance(ms: number): void {
    this.micros += ms * 1000;
  }

  set(at: string | Date): void {
    this.micros = new Date(at).getTime() * 1000;
  }
}
