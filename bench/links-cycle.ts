// Cycle detection on a 10,000-task blocks chain:
//   node --import tsx bench/links-cycle.ts                       (SQLite, temporary file)
//   TEST_DATABASE_URL=postgres://... node --import tsx bench/links-cycle.ts   (PostgreSQL, throwaway schema)
// Prints the time of the graph walk alone and of whole link requests that walk the full chain.
import { findBlockingPath } from '../src/modules/links/links.repository.ts';
import { createHarness } from '../tests/helpers/harness.ts';
import { seedBlockingChain } from '../tests/helpers/factory.ts';

const LENGTH = Number(process.env.CHAIN_LENGTH ?? 10_000);
const RUNS = 5;

const h = await createHarness();
try {
  const admin = await h.actor();
  await h.project(admin, 'BENCH');
  let started = performance.now();
  const keys = await seedBlockingChain(h, 'BENCH', LENGTH);
  const seedMs = performance.now() - started;

  const ids = await h.ctx.db
    .selectFrom('tasks')
    .select(['id', 'key'])
    .where('key', 'in', [keys[0]!, keys.at(-1)!])
    .execute();
  const idOf = (key: string) => ids.find((r) => r.key === key)!.id;
  const first = idOf(keys[0]!);
  const last = idOf(keys.at(-1)!);

  const median = (samples: number[]) => samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
  async function time(run: () => Promise<unknown>): Promise<number> {
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      started = performance.now();
      await run();
      samples.push(performance.now() - started);
    }
    return median(samples);
  }

  const walk = await time(async () => {
    const path = await findBlockingPath(h.ctx.db, last, first);
    if (path?.length !== LENGTH) throw new Error(`expected a path of ${LENGTH} tasks, got ${path?.length}`);
  });
  const refused = await time(async () => {
    const res = await h.request('POST', `/api/v1/tasks/${keys.at(-1)}/link/`, {
      token: admin.token,
      body: { task: keys[0], type: 'blocks' },
    });
    if (res.status !== 422) throw new Error(`expected 422, got ${res.status}`);
  });
  // No loop, but the walk still visits the whole chain before concluding so; each run then removes its link.
  const outside = await h.request('POST', '/api/v1/projects/BENCH/tasks/', {
    token: admin.token,
    body: { title: 'outside' },
  });
  const accepted = await time(async () => {
    const res = await h.request('POST', `/api/v1/tasks/${outside.body.data.key}/link/`, {
      token: admin.token,
      body: { task: keys[0], type: 'blocks' },
    });
    if (res.status !== 201) throw new Error(`expected 201, got ${res.status}`);
    await h.ctx.db.deleteFrom('task_links').where('id', '=', res.body.data.id).execute();
  });

  console.log(
    JSON.stringify({
      dialect: h.ctx.dialect,
      chain_length: LENGTH,
      seed_ms: Math.round(seedMs),
      median_of: RUNS,
      walk_ms: Number(walk.toFixed(1)),
      request_refused_with_full_path_ms: Number(refused.toFixed(1)),
      request_accepted_after_full_walk_ms: Number(accepted.toFixed(1)),
    }),
  );
} finally {
  await h.close();
}
