import { hash, verify } from '@node-rs/argon2';
import type { ContextState } from '../context.ts';
import { invalid } from '../http/errors.ts';

/**
 * Password hashing: argon2id with the OWASP Password Storage Cheat Sheet's first
 * configuration (19 MiB of memory, 2 iterations, 1 lane). The PHC string keeps its own
 * parameters, so stronger settings later still verify old hashes.
 */
// `algorithm: 2` is the library's Algorithm.Argon2id (a const enum, which isolated modules cannot import).
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const MIN_PASSWORD_LENGTH = 10;
/** Long enough for any passphrase or manager-generated password; bounds the work a request can ask for. */
export const MAX_PASSWORD_LENGTH = 1024;

/** Length is the only rule (no composition rules). */
export function checkPasswordRules(password: string, field = 'password'): void {
  if ([...password].length < MIN_PASSWORD_LENGTH)
    throw invalid({ [field]: `must be at least ${MIN_PASSWORD_LENGTH} characters` });
  if (password.length > MAX_PASSWORD_LENGTH)
    throw invalid({ [field]: `must be at most ${MAX_PASSWORD_LENGTH} characters` });
}

/** What hashing needs of the context: its process-wide queue (hashing-queue.ts). */
type Hashing = { state: Pick<ContextState, 'passwordHashing'> };

export function hashPassword(ctx: Hashing, password: string): Promise<string> {
  return ctx.state.passwordHashing.run(() => hash(password, OPTIONS));
}

/**
 * A new password, checked against the rules and hashed: do this before the unit of work that
 * stores it, so the transaction never waits on argon2.
 */
export async function hashNewPassword(ctx: Hashing, password: string, field = 'password'): Promise<string> {
  checkPasswordRules(password, field);
  return hashPassword(ctx, password);
}

/**
 * An immutable constant, not state: the hash verified against when there is no account, so that
 * answer takes as long as a wrong password. Its parameters are OPTIONS' own, so verifying it
 * costs exactly what verifying a real hash does; its salt and digest are fixed bytes that were
 * produced from a random password nobody kept (and it never signs anyone in: with no account
 * the answer is false whatever the result).
 */
const NO_ACCOUNT_HASH = `$argon2id$v=19$m=${OPTIONS.memoryCost},t=${OPTIONS.timeCost},p=${OPTIONS.parallelism}$D6K0QthWNFrma6FrRWdqrw$5/WsQclIEDp7y/bXSeiHO0cgdzIbNO1RPd21FsN74iA`;

/** True when `password` matches `stored`; with no stored hash, spends the same time and answers false. */
export async function verifyPassword(ctx: Hashing, stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    await ctx.state.passwordHashing.run(() => verify(NO_ACCOUNT_HASH, password).catch(() => false));
    return false;
  }
  return ctx.state.passwordHashing.run(() => verify(stored, password).catch(() => false));
}
