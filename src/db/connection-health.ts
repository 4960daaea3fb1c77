/** The part of a pino logger the health log needs (FastifyBaseLogger and pino's Logger both fit). */
export interface HealthLog {
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
}

/** Socket-level failures: the server is gone, unreachable, or dropped the connection. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's own codes for "this connection is over" or "no connection now": class 08
 * (connection exception), 57P01-57P03 (administrator/crash shutdown, cannot connect now) and
 * 53300 (too many connections).
 */
const SERVER_CODE = /^(08|57P0[123]$|53300$)/;

/** node-postgres' errors for a connection that ended or never came, which carry no code. */
const DRIVER_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect)/;

/** True when `error` (or its cause) says the database connection failed, not the statement. */
export function isConnectionError(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | null, depth = 0;
    e && depth < 4;
    depth++
  ) {
    if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || SERVER_CODE.test(e.code))) return true;
    if (typeof e.message === 'string' && DRIVER_MESSAGE.test(e.message)) return true;
    e = (typeof e.cause === 'object' ? e.cause : null) as typeof e;
  }
  return false;
}

/**
 * The fields a log line about a failed connection carries: the code and the driver's message.
 * Never the error object itself: node-postgres hangs the client on it, and the client holds
 * the text of every statement it prepared.
 */
export function connectionFailure(error: unknown): { code: string | undefined; reason: string } {
  const e = error as { code?: unknown; message?: unknown } | null;
  return {
    code: typeof e?.code === 'string' ? e.code : undefined,
    reason: typeof e?.message === 'string' ? e.message.slice(0, 200) : String(error).slice(0, 200),
  };
}

/**
 * Whether this process can reach its database, as the last connection attempt or failure
 * said. It logs one line when connections start failing and one when they work again, however
 * many connections failed in between, so an outage is two lines rather than a line per query.
 */
export class ConnectionHealth {
  private lostAt: number | null = null;
  private log: HealthLog | null = null;

  /**
   * `what` names the connection in the lines' `event` (`<what>_connection_lost`,
   * `<what>_connection_restored`); `messages` say what the process does meanwhile.
   */
  constructor(
    private readonly what: string,
    private readonly messages = {
      lost: `${what}: connection lost; failed connections are dropped and new ones opened as needed`,
      restored: `${what}: connection restored`,
    },
  ) {}

  /** Where the state changes are logged (the process' logger, once it exists). */
  useLogger(log: HealthLog): void {
    this.log = log;
  }

  get reachable(): boolean {
    return this.lostAt === null;
  }

  /** A connection failed, or could not be opened. */
  lost(error: unknown): void {
    if (this.lostAt !== null) return;
    this.lostAt = Date.now();
    this.log?.warn({ event: `${this.what}_connection_lost`, ...connectionFailure(error) }, this.messages.lost);
  }

  /** A connection was opened or answered. */
  restored(): void {
    if (this.lostAt === null) return;
    const downMs = Date.now() - this.lostAt;
    this.lostAt = null;
    this.log?.info({ event: `${this.what}_connection_restored`, down_ms: downMs }, this.messages.restored);
  }
}
