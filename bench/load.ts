/**
 * The load generator of `npm run bench` (bench/run.ts forks it, so load comes from a second
 * process over loopback). Keep-alive node:http agents, a fixed number of concurrent clients,
 * each sending its next request as soon as the previous answer is read. Bounded by duration.
 *
 * Messages in: a LoadSpec. Message out: a LoadResult.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface LoadRequest {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: string;
}

export interface LoadSpec {
  port: number;
  headers: Record<string, string>;
  concurrency: number;
  durationMs: number;
  /** Requests are taken round-robin from this list. */
  requests: LoadRequest[];
  /**
   * Instead of `requests`: client i cycles through its own list, in order. For writes whose
   * next request depends on the previous one (a task moved back and forth along transitions).
   */
  perClient?: LoadRequest[][];
  /** Every request gets a fresh Idempotency-Key with this prefix. */
  idempotencyPrefix?: string;
  /** Follow `pagination.next_cursor` from `requests[0].path` until has_more is false (one client). */
  walk?: { maxMs: number };
}

export interface LoadResult {
  requests: number;
  errors: number;
  firstError: string | null;
  seconds: number;
  perSecond: number[];
  p50: number;
  p99: number;
  /** Walk mode: number of items (changes) read. */
  items: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function send(
  agent: http.Agent,
  spec: LoadSpec,
  request: LoadRequest,
  extra: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...spec.headers, ...extra };
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(request.body));
    }
    const req = http.request(
      { host: '127.0.0.1', port: spec.port, method: request.method, path: request.path, agent, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

async function run(spec: LoadSpec): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.concurrency });
  const latencies: number[] = [];
  const buckets: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  let items = 0;
  let counter = 0;
  const started = performance.now();
  const deadline = started + (spec.walk ? spec.walk.maxMs : spec.durationMs);

  const one = async (request: LoadRequest): Promise<string | null> => {
    const extra: Record<string, string> = spec.idempotencyPrefix
      ? { 'idempotency-key': `${spec.idempotencyPrefix}-${counter++}` }
      : {};
    const t0 = performance.now();
    try {
      const res = await send(agent, spec, request, extra);
      const t1 = performance.now();
      latencies.push(t1 - t0);
      const second = Math.floor((t1 - started) / 1000);
      buckets[second] = (buckets[second] ?? 0) + 1;
      if (res.status >= 400) {
        errors += 1;
        firstError ??= `${res.status} ${res.body.slice(0, 300)}`;
        return null;
      }
      return res.body;
    } catch (error) {
      errors += 1;
      firstError ??= String(error);
      return null;
    }
  };

  if (spec.walk) {
    const base = spec.requests[0]!.path;
    let cursor = '';
    while (performance.now() < deadline) {
      const body = await one({ method: 'GET', path: `${base}&cursor=${cursor}` });
      if (body === null) break;
      const page = JSON.parse(body) as {
        data: { changes: unknown[] };
        pagination: { next_cursor: string; has_more: boolean };
      };
      items += page.data.changes.length;
      if (!page.pagination.has_more) break;
      cursor = page.pagination.next_cursor;
    }
  } else {
    let next = 0;
    await Promise.all(
      Array.from({ length: spec.concurrency }, async (_, client) => {
        const own = spec.perClient?.[client];
        for (let i = 0; performance.now() < deadline; i++)
          await one(own ? own[i % own.length]! : spec.requests[next++ % spec.requests.length]!);
      }),
    );
  }
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const sorted = Float64Array.from(latencies).sort();
  // Whole seconds only: the last, partial bucket would drag the median down.
  const whole = buckets.slice(0, Math.max(1, Math.floor(seconds))).map((n) => n ?? 0);
  return {
    requests: latencies.length,
    errors,
    firstError,
    seconds,
    perSecond: whole,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    items,
  };
}

process.on('message', (spec: LoadSpec) => {
  run(spec).then(
    (result) => process.send!(result),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
