/**
 * An `Idempotency-Key` must name the thing being created, so that every retry of one creation
 * sends the same key: a key made up per attempt protects nothing. These keys are derived from a
 * caller-supplied identifier of the source (an upstream event or row id) and the creation's
 * target, hashed so that any identifier fits the header's 255 printable ASCII characters.
 */

const encoder = new TextEncoder();

/**
 * A stable key for the given parts, e.g. `idempotencyKey('jira', 'PROJ-42')`:
 * `tt1-` and the hex SHA-256 of the parts (68 characters). Same parts, same key.
 */
export async function idempotencyKey(...parts: (string | number)[]): Promise<string> {
  if (parts.length === 0) throw new TypeError('idempotencyKey needs at least one part');
  // JSON keeps ["a:b"] and ["a", "b"] apart, which a plain join would not.
  const digest = await globalThis.crypto.subtle.digest('SHA-256', encoder.encode(JSON.stringify(parts)));
  return `tt1-${Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
