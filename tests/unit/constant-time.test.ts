import { beforeEach, describe, expect, it, vi } from 'vitest';
import { secretsEqual } from '../../src/crypto/constant-time.ts';

// A pass-through spy: the helper must reach timingSafeEqual with equal-length digests.
vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:crypto')>();
  return { ...original, timingSafeEqual: vi.fn(original.timingSafeEqual) };
});
const { timingSafeEqual } = await import('node:crypto');

describe('secretsEqual: constant-time comparison of secrets', () => {
  beforeEach(() => {
    vi.mocked(timingSafeEqual).mockClear();
  });

  it('is true only for the identical string', () => {
    const secret = 'Bearer m3tr1cs-t0ken-Ω';
    expect(secretsEqual(secret, secret)).toBe(true);
    for (const other of [
      '',
      'Bearer',
      `${secret} `,
      secret.slice(0, -1),
      `x${secret.slice(1)}`,
      `${secret.slice(0, -1)}ω`,
      secret.toLowerCase(),
    ]) {
      expect(secretsEqual(other, secret), JSON.stringify(other)).toBe(false);
    }
  });

  it('compares SHA-256 digests with timingSafeEqual, so inputs of any length never throw and never short-circuit', () => {
    expect(secretsEqual('short', 'a much longer expected secret value')).toBe(false);
    expect(secretsEqual('x'.repeat(10_000), 'y')).toBe(false);
    expect(timingSafeEqual).toHaveBeenCalledTimes(2);
    for (const [a, b] of vi.mocked(timingSafeEqual).mock.calls) {
      expect([(a as Buffer).length, (b as Buffer).length]).toEqual([32, 32]);
    }
  });
});
