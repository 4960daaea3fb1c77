import type { Clock } from '../clock.ts';
import type { Db, Executor } from '../db/database.ts';
import { prepared } from '../db/prepared.ts';
import type { Principal } from './principal.ts';
import { authEpoch } from './auth.repository.ts';
import { assertUsable, principalOfTokenHash, tokenHashOf } from './auth.service.ts';
import { loadVisibleProjects, type VisibleProjects } from '../policy/visibility.repository.ts';

/**
 * Remembers, per process, what a token resolves to (its principal and, once asked for, the
 * projects it can see), so a read does not redo those queries on every request.
 *
 * Validity: the `auth_epoch` row moves forward, by database triggers and in the same
 * transaction, with every change that can alter what a token may do (migration 0011). Each
 * request reads it (one primary-key lookup) before using anything cached; an entry is used only
 * if it was loaded under the epoch just read. Entries are loaded after reading the epoch they
 * are tagged with, so they are never older than their tag; a change committed later moves the
 * epoch past the tag. This holds across processes sharing the database, since the counter
 * lives in the database. Expiry depends on time, not on the epoch: it is checked on every use.
 */
interface Entry {
  epoch: number;
  principal: Principal;
}

/** Tokens remembered at most; beyond, the least recently used is forgotten. */
const MAX_ENTRIES = 10_000;

export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  private readonly readEpoch: () => Promise<Array<{ value: number | string }>>;

  constructor(private readonly db: Db) {
    this.readEpoch = prepared(db, authEpoch);
  }

  /**
   * The cached principal of this token and the epoch it was loaded under, without reading the
   * epoch: for a caller that reads it in its own statement and must check it before answering
   * (src/identity/auth-hook.ts `confirmedPrincipal`). Undefined when nothing usable is cached.
   */
  cached(clock: Clock, header: string | undefined): Entry | undefined {
    const entry = this.entries.get(tokenHashOf(header));
    if (!entry) return undefined;
    assertUsable(clock, entry.principal.expiresAt);
    return entry;
  }

  /** As `authenticate`, answering from the cache when the epoch allows. */
  async authenticate(clock: Clock, header: string | undefined): Promise<Principal> {
    const hash = tokenHashOf(header);
    const [row] = await this.readEpoch();
    // No row (a database not migrated this far) means nothing can be trusted: never cache.
    const epoch = row ? Number(row.value) : undefined;
    const cached = this.entries.get(hash);
    if (cached && epoch !== undefined && cached.epoch === epoch) {
      assertUsable(clock, cached.principal.expiresAt);
      // Map order is insertion order: moving the entry to the end keeps eviction least-recently-used.
      this.entries.delete(hash);
      this.entries.set(hash, cached);
      return cached.principal;
    }
    const principal = await principalOfTokenHash(this.db, clock, hash);
    if (epoch === undefined) return principal;
    const entry: Entry = { epoch, principal: { ...principal, visibleProjects: {} } };
    this.entries.delete(hash);
    this.entries.set(hash, entry);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return entry.principal;
  }
}

/**
 * A principal of its own for one request, sharing the cached one's visible projects, so what is
 * remembered about a request (the policy's grants) never mixes with another request's.
 */
export function principalForRequest(principal: Principal): Principal {
  return { ...principal, grants: undefined };
}

/**
 * The projects the caller can see, from the cache when the principal came from it (valid for
 * the request that authenticated it), otherwise loaded now.
 */
export function visibleProjectsOf(db: Executor, principal: Principal): Promise<VisibleProjects> {
  const cached = principal.visibleProjects;
  if (!cached) return loadVisibleProjects(db, principal);
  if (!cached.load) {
    const load = loadVisibleProjects(db, principal);
    // A failed load is not remembered.
    load.catch(() => {
      if (cached.load === load) cached.load = undefined;
    });
    cached.load = load;
  }
  return cached.load;
}
