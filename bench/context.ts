import { loadConfig } from '../src/config.ts';
import { type AppContext, createAppContext } from '../src/context.ts';
import type { DatabaseHandle } from '../src/db/database.ts';

/** The service's context for benchmarks: real clock and configuration, rate limits out of the way of the load. */
export function benchContext(database: DatabaseHandle): AppContext {
  const base = loadConfig({});
  return createAppContext({
    config: { ...base, rateLimit: { ...base.rateLimit, tokenBurst: 1e9, orgHourly: 1e9, searchPerMinute: 1e9 } },
    database,
  });
}
