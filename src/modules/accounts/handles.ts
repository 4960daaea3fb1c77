/**
 * Account handles: the name people type to mention someone (`@alice`) or to find their work
 * (`assignee = alice`). Unique in the organization; derived once from the e-mail's local part
 * (service accounts: from their name) and changed only by the account itself.
 */
export const HANDLE_PATTERN = /^[a-z0-9][a-z0-9_-]{0,29}$/;
export const HANDLE_MAX_LENGTH = 30;

export function isHandle(value: string): boolean {
  return HANDLE_PATTERN.test(value);
}

/**
 * The handle an account would get before clashes are considered: letters lose their accents,
 * separators people put in addresses and names (`.`, `+`, spaces) become `-`, anything else
 * that cannot be in a handle is dropped. Never empty: `fallback` stands in when nothing is left.
 */
export function handleBase(source: string, fallback: string): string {
  const base = source
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[.+\s]+/g, '-')
    .replace(/[^a-z0-9_-]/g, '')
    .replace(/-{2,}/g, '-')
    .replace(/^[_-]+/, '')
    .slice(0, HANDLE_MAX_LENGTH)
    .replace(/[_-]+$/, '');
  return base === '' ? fallback : base;
}

/** Where a new account's handle comes from: the e-mail's local part, else (service accounts) the name. */
export function handleSource(account: { kind: 'human' | 'service'; email: string | null; name: string }): string {
  if (account.kind === 'human' && account.email) return account.email.slice(0, account.email.lastIndexOf('@'));
  return account.name;
}

/** `base` with the number `n` appended, shortened so the whole stays within the handle's length. */
export function numberedHandle(base: string, n: number): string {
  const suffix = String(n);
  return base.slice(0, HANDLE_MAX_LENGTH - suffix.length).replace(/[_-]+$/, '') + suffix;
}

/** The first of `base`, `base2`, `base3`, ... that `taken` does not hold. */
export function freeHandle(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = numberedHandle(base, n);
    if (!taken.has(candidate)) return candidate;
  }
}

/** A new account's handle, given the handles its organization already holds. */
export function newHandle(
  account: { kind: 'human' | 'service'; email: string | null; name: string },
  taken: ReadonlySet<string>,
): string {
  return freeHandle(handleBase(handleSource(account), account.kind === 'service' ? 'service' : 'user'), taken);
}
