import { HANDLE_MAX_LENGTH } from '../accounts/handles.ts';

/**
 * `@handle` mentions in markdown: an `@` not preceded by a letter, digit or `_` (so
 * `bob@example.com` mentions nobody), then the longest run of characters a handle may hold: a
 * mention ends at the first one it cannot (`@alice.` mentions alice). Runs longer than a handle
 * can be, or starting with `_` or `-`, mention nobody.
 */
const MENTION = /(?<![A-Za-z0-9_])@([a-z0-9_-]+)/g;

export function mentionedHandles(text: string): Set<string> {
  const handles = new Set<string>();
  for (const match of text.matchAll(MENTION)) {
    const handle = match[1]!;
    if (handle.length <= HANDLE_MAX_LENGTH && /^[a-z0-9]/.test(handle)) handles.add(handle);
  }
  return handles;
}

/** Handles `after` mentions that `before` did not: an edit notifies only the people it adds. */
export function newlyMentioned(before: string, after: string): Set<string> {
  const had = mentionedHandles(before);
  return new Set([...mentionedHandles(after)].filter((handle) => !had.has(handle)));
}

/**
 * Task keys (`OPS-12`) named in markdown: a project key, `-` and a number, not inside a longer
 * word or path (`xOPS-1`, `/OPS-1`, `OPS-1x` name nothing).
 */
const REFERENCE = /(?<![A-Za-z0-9_/-])([A-Z][A-Z0-9]{0,9}-[1-9][0-9]{0,9})(?![A-Za-z0-9_])/g;

export function referencedKeys(text: string): Set<string> {
  return new Set([...text.matchAll(REFERENCE)].map((match) => match[1]!));
}

/** Keys `after` names that `before` did not: an edit records only the references it adds. */
export function newlyReferenced(before: string, after: string): Set<string> {
  const had = referencedKeys(before);
  return new Set([...referencedKeys(after)].filter((key) => !had.has(key)));
}
