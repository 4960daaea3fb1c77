import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares a presented secret with the expected one in time that depends on neither where they
 * first differ nor their lengths: both are hashed to 32 bytes, so `timingSafeEqual` always
 * compares equal-length buffers (it throws on unequal ones).
 */
export function secretsEqual(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
