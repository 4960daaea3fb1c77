/**
 * `npm run bench:web`: the web app in Debian's Chromium against the real app on loopback over
 * a fresh database. Prints the initial JavaScript (gzip), navigation to a usable board of
 * TASKS (2,000) cards, a drop to the card showing in its new column, and a change made through
 * the API with a token to its card moving on the open board. Figures only: the
 * machine's load decides them, nothing here asserts a time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
import { WEB_DIST } from '../src/http/web-app.ts';
import { openWorld, skipReason } from '../tests/browser/browser.ts';
import { signIn } from '../tests/browser/session.ts';

if (skipReason) {
  console.error(skipReason);
  process.exit(1);
}
const TASKS = Number(process.env.TASKS ?? 2000);
const RUNS = Number(process.env.RUNS ?? 3);

const html = fs.readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
const gzip = initial.reduce((sum, file) => sum + zlib.gzipSync(fs.readFileSync(path.join(WEB_DIST, file))).length, 0);

const world = await openWorld();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
try {
  const owner = await signIn(world);
  const api = async (url: string, body: unknown) => {
    const res = await world.h.request('POST', url, { token: owner.bot.token, body });
    if (res.status >= 300) throw new Error(`${url}: ${res.status} ${res.text}`);
  };
  await api('/api/v1/projects/', { name: 'Big board', key: 'BIG' });
  await world.h.addMember('BIG', owner.userId, 'admin');
  for (let i = 0; i < TASKS; i += 100) {
    const tasks = Array.from({ length: Math.min(100, TASKS - i) }, (_, j) => ({
      title: `Task number ${i + j + 1} with a longer title to wrap`,
      labels: [],
    }));
    await api('/api/v1/projects/BIG/tasks/bulk/', { tasks });
  }
  const { page } = world;
  const loads: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    await page.goto('/p/BIG/board');
    await page.getByRole('region', { name: 'To Do' }).getByRole('button').first().waitFor();
    loads.push(performance.now() - start);
  }
  const drops: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const card = page.getByRole('region', { name: 'To Do' }).getByRole('button').first();
    const key = await card.getAttribute('data-task');
    const box = (await card.boundingBox())!;
    const target = (await page.getByRole('region', { name: 'In Progress' }).boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 20, box.y + box.height / 2, { steps: 3 });
    await page.mouse.move(target.x + target.width / 2, target.y + 100, { steps: 5 });
    const start = performance.now();
    await page.mouse.up();
    await page.getByRole('region', { name: 'In Progress' }).locator(`[data-task="${key}"]`).waitFor();
    drops.push(performance.now() - start);
  }
  // A change made through the API with a token, to the card showing it on the open board (the
  // live stream's path: commit, wake-up, event, refetch, render).
  const lives: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const key = await page.getByRole('region', { name: 'To Do' }).getByRole('button').first().getAttribute('data-task');
    const start = performance.now();
    const res = await world.h.request('PUT', `/api/v1/tasks/${key}/`, {
      token: owner.bot.token,
      body: { status: 'In Progress' },
    });
    if (res.status !== 200) throw new Error(`PUT ${key}: ${res.status} ${res.text}`);
    await page.getByRole('region', { name: 'In Progress' }).locator(`[data-task="${key}"]`).waitFor();
    lives.push(performance.now() - start);
  }
  const cards = await page.locator('[data-task]').count();
  console.log(`initial JavaScript: ${(gzip / 1024).toFixed(1)} KB gzip (${initial.join(', ')})`);
  console.log(
    `navigation to a usable board of ${TASKS} cards: median ${median(loads).toFixed(0)} ms over ${RUNS} (cards in the DOM: ${cards})`,
  );
  console.log(`drop to column change: median ${median(drops).toFixed(0)} ms over ${RUNS}`);
  console.log(`change through the API to the open board: median ${median(lives).toFixed(0)} ms over ${RUNS}`);
} finally {
  await world.close();
}
