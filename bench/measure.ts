import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { Db } from '../src/db/database.ts';

/** CPU ms used so far by each PostgreSQL server process connected to this database (Linux /proc; 10 ms ticks). */
export async function backendCpu(db: Db): Promise<Map<number, number>> {
  const { rows } = await sql<{
    pid: number;
  }>`select pid from pg_stat_activity where datname = current_database()`.execute(db);
  const used = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      used.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // A process that ended meanwhile.
    }
  }
  return used;
}

export interface Figures {
  p50: number;
  p99: number;
  /** CPU ms per request of this process (the service), and of the database's server processes (PostgreSQL). */
  cpu: number;
  dbCpu: number | null;
}

/**
 * `requests` calls of `request` one at a time, after ten to warm up: p50/p99 ms, and CPU ms per
 * request of this process and (`db` given, on PostgreSQL) of the database's server processes.
 */
export async function measure(request: () => Promise<unknown>, requests: number, db: Db | null): Promise<Figures> {
  for (let i = 0; i < 10; i++) await request();
  const times: number[] = [];
  const dbBefore = db ? await backendCpu(db) : null;
  const cpu = process.cpuUsage();
  for (let i = 0; i < requests; i++) {
    const t0 = performance.now();
    await request();
    times.push(performance.now() - t0);
  }
  const used = process.cpuUsage(cpu);
  let dbCpu: number | null = null;
  if (db && dbBefore) {
    dbCpu = 0;
    for (const [pid, ms] of await backendCpu(db)) dbCpu += ms - (dbBefore.get(pid) ?? 0);
    dbCpu /= requests;
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
  return { p50: at(0.5), p99: at(0.99), cpu: (used.user + used.system) / 1000 / requests, dbCpu };
}

/** CPU ms per request: `service` or `service / database`. */
export const cpuOf = (f: Figures) => `${f.cpu.toFixed(2)}${f.dbCpu === null ? '' : ` / ${f.dbCpu.toFixed(2)}`}`;
