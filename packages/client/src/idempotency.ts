/**
 * An `Idempotency-Key` must name the thing being created, so that every retry of one creation
 * sends the same key: a key made up per attempt protects nothing. These keys are derived from a
 * caller-supplied identifier of the source (an upstream event or row id) and the creation's
 * target, hashed so that any identifier fits the header's 255 printable ASCII characters.
 */
import { createHash } from 'node:crypto';

/**
 * A stable key for the given parts, e.g. `idempotencyKey('jira', 'PROJ-42')`:
 * `tt1-` and the hex SHA-256 of the parts (68 characters). Same parts, same key.
 */
export function idempotencyKey(...parts: (string | number)[]): string {
  if (parts.length === 0) throw new TypeError('idempotencyKey needs at least one part');
  // JSON keeps ["a:b"] and ["a", "b"] apart, which a plain join would not.
  return `tt1-${createHash('sha256').update(JSON.stringify(parts)).digest('hex')}`;
}
