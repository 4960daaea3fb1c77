/**
 * `npm run bench:web`: the web app in Debian's Chromium against the real app on loopback over
 * a fresh database. Prints the initial JavaScript (gzip); for boards of SIZES tasks (100, the
 * baseline, then 2,000 and 10,000) the time to the first card and to the complete board (every
 * column's count and first cards, and the project's settings for the filters); on the 2,000
 * board, the requests and bytes the open board reads for one change made through the API, next
 * to what reading the project again costs (what the board did before); a drop to the card
 * showing in its new column and a change through the API to its card moving; and the list
 * scrolled to its last task. Figures only: the machine's load decides them, nothing asserts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
import type { Page, Response } from 'playwright-core';
import { WEB_DIST } from '../src/http/web-app.ts';
import { openWorld, skipReason } from '../tests/browser/browser.ts';
import { signIn } from '../tests/browser/session.ts';

if (skipReason) {
  console.error(skipReason);
  process.exit(1);
}
const SIZES = (process.env.SIZES ?? '100,2000,10000').split(',').map(Number);
const CHANGE_SIZE = Number(process.env.CHANGE_SIZE ?? 2000);
const RUNS = Number(process.env.RUNS ?? 3);

const html = fs.readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
const gzip = initial.reduce((sum, file) => sum + zlib.gzipSync(fs.readFileSync(path.join(WEB_DIST, file))).length, 0);

const world = await openWorld();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The app's reads of the API while `work` runs (the live stream aside), with their body sizes. */
async function reads(page: Page, work: () => Promise<void>): Promise<Array<{ url: string; bytes: number }>> {
  const pending: Array<Promise<{ url: string; bytes: number }>> = [];
  const listener = (response: Response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith('/api/') || url.pathname === '/api/console/live/') return;
    pending.push(
      response.body().then(
        (body) => ({ url: `${response.request().method()} ${url.pathname}${url.search}`, bytes: body.length }),
        () => ({ url: url.pathname, bytes: 0 }),
      ),
    );
  };
  page.on('response', listener);
  try {
    await work();
  } finally {
    page.off('response', listener);
  }
  return Promise.all(pending);
}

try {
  const owner = await signIn(world);
  const { page } = world;
  const request = async (method: 'POST' | 'PUT', url: string, body: unknown) => {
    const res = await world.h.request(method, url, { token: owner.bot.token, body });
    if (res.status >= 300) throw new Error(`${url}: ${res.status} ${res.text}`);
    return res.body.data;
  };

  /** A project of `size` tasks spread over the four columns of the default workflow. */
  const makeProject = async (key: string, size: number) => {
    await request('POST', '/api/v1/projects/', { name: `Board of ${size}`, key });
    await world.h.addMember(key, owner.userId, 'admin');
    const keys: string[] = [];
    for (let i = 0; i < size; i += 100) {
      const tasks = Array.from({ length: Math.min(100, size - i) }, (_, j) => ({
        title: `Task number ${i + j + 1} with a longer title to wrap`,
      }));
      const made: Array<{ key: string }> = await request('POST', `/api/v1/projects/${key}/tasks/bulk/`, { tasks });
      keys.push(...made.map((t) => t.key));
    }
    // A quarter stays in To Do; the rest walks the workflow, a quarter stopping at each status.
    const steps = ['In Progress', 'In Review', 'Done'];
    for (const [step, status] of steps.entries()) {
      const moving = keys.slice(Math.floor((size * (step + 1)) / 4));
      for (let i = 0; i < moving.length; i += 100)
        await request('POST', `/api/v1/projects/${key}/tasks/bulk-update/`, {
          tasks: moving.slice(i, i + 100).map((k) => ({ key: k, status })),
        });
    }
  };

  // The page notes when its first card enters the DOM, on its own clock from navigation start:
  // the app's share of the first card without this script's polling.
  await world.context.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.querySelector('[data-task]')) return;
      (window as unknown as { firstCardAt: number }).firstCardAt = performance.now();
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });

  /** Navigation to the first card, and to every column's count and first cards with the filters' choices loaded. */
  const openBoard = async (key: string) => {
    const start = performance.now();
    await page.goto(`/p/${key}/board`);
    await page.locator('[data-task]').first().waitFor();
    const first = performance.now() - start;
    const inPage = await page.evaluate(() => (window as unknown as { firstCardAt: number }).firstCardAt);
    await page.waitForFunction(() => {
      const columns = [...document.querySelectorAll('.column')];
      const assignees = document.querySelectorAll('.filters select')[0]?.querySelectorAll('option').length ?? 0;
      return (
        columns.length === 4 &&
        columns.every((c) => c.querySelector('[data-task]')) &&
        assignees > 2 &&
        document.querySelectorAll('.avatar').length > 0
      );
    });
    return { first, inPage, complete: performance.now() - start };
  };

  /**
   * Where the first card's time went on the last open: the page's own clock from navigation
   * start to the HTML, the scripts run, and each API read the first paint waited on.
   */
  const firstPaintSteps = () =>
    page.evaluate(() => {
      // Inline only: a named helper in here would not survive tsx's transform into the page.
      const nav = performance
        .getEntries()
        .find((e) => String(e.entryType) === 'navigation') as PerformanceNavigationTiming;
      const reads = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((r) => /\/assets\/|\/api\//.test(r.name) && !r.name.includes('/live/'))
        .map(
          (r) =>
            `${new URL(r.name).pathname.replace(/^\/api\/(v1|console)/, '')} ${r.startTime.toFixed(0)}–${r.responseEnd.toFixed(0)}`,
        );
      return `html ${nav.responseEnd.toFixed(0)}, scripts run ${nav.domContentLoadedEventEnd.toFixed(0)}; ${reads.join(', ')}`;
    });

  console.log(`initial JavaScript: ${(gzip / 1024).toFixed(1)} KB gzip (${initial.join(', ')})`);
  for (const size of SIZES) {
    const key = `B${size}`;
    await makeProject(key, size);
    const firsts: number[] = [];
    const inPages: number[] = [];
    const completes: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const { first, inPage, complete } = await openBoard(key);
      firsts.push(first);
      inPages.push(inPage);
      completes.push(complete);
    }
    console.log(`  the last open, ms from navigation start: ${await firstPaintSteps()}`);
    console.log(
      `board of ${size} tasks: first card median ${median(firsts).toFixed(0)} ms (${median(inPages).toFixed(0)} ms on the page's clock from navigation start), complete board ${median(completes).toFixed(0)} ms over ${RUNS} (cards in the DOM: ${await page.locator('[data-task]').count()})`,
    );
  }

  // One change through the API on the open board: what the board reads to show it.
  const big = `B${CHANGE_SIZE}`;
  if (!SIZES.includes(CHANGE_SIZE)) await makeProject(big, CHANGE_SIZE);
  await openBoard(big);
  const toDo = page.getByRole('region', { name: 'To Do' });
  const inProgress = page.getByRole('region', { name: 'In Progress' });
  const changed = await toDo.locator('[data-task]').first().getAttribute('data-task');
  const onChange = await reads(page, async () => {
    await request('PUT', `/api/v1/tasks/${changed}/`, { status: 'In Progress', title: 'Changed by a script' });
    await inProgress.locator(`[data-task="${changed}"]`).waitFor();
    // Anything else the change set off would have started by now; let it finish.
    await page.waitForTimeout(1000);
  });
  // The baseline: reading the project's tasks again, 200 a page, as the board did before.
  const reread = await page.evaluate(async (project) => {
    let cursor = '';
    let bytes = 0;
    let requests = 0;
    for (;;) {
      const res = await fetch(`/api/v1/projects/${project}/tasks/?limit=200&cursor=${encodeURIComponent(cursor)}`);
      const text = await res.text();
      bytes += text.length;
      requests += 1;
      const page = JSON.parse(text);
      if (!page.pagination?.has_more) return { bytes, requests };
      cursor = page.pagination.next_cursor;
    }
  }, big);
  console.log(
    `one change through the API on the open ${CHANGE_SIZE}-task board: ${onChange.length} request(s), ${kb(onChange.reduce((s, r) => s + r.bytes, 0))} (${onChange.map((r) => `${r.url} ${kb(r.bytes)}`).join('; ')}); baseline, the project read again: ${reread.requests} requests, ${kb(reread.bytes)}`,
  );

  const drops: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const card = toDo.locator('[data-task]').first();
    const key = await card.getAttribute('data-task');
    const box = (await card.boundingBox())!;
    const target = (await inProgress.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 20, box.y + box.height / 2, { steps: 3 });
    await page.mouse.move(target.x + target.width / 2, target.y + 100, { steps: 5 });
    const start = performance.now();
    await page.mouse.up();
    await inProgress.locator(`[data-task="${key}"]`).waitFor();
    drops.push(performance.now() - start);
  }
  // A change made through the API with a token, to the card showing it on the open board (the
  // live stream's path: commit, wake-up, event, one read of the task, render).
  const lives: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const key = await toDo.locator('[data-task]').first().getAttribute('data-task');
    const start = performance.now();
    await request('PUT', `/api/v1/tasks/${key}/`, { status: 'In Progress' });
    await inProgress.locator(`[data-task="${key}"]`).waitFor();
    lives.push(performance.now() - start);
  }
  console.log(`drop to column change: median ${median(drops).toFixed(0)} ms over ${RUNS}`);
  console.log(`change through the API to the open board: median ${median(lives).toFixed(0)} ms over ${RUNS}`);

  // The list, scrolled from its top to its last task (by key).
  const lastKey = `${big}-${CHANGE_SIZE}`;
  let scrolled = 0;
  let rowsInDom = 0;
  const listReads = await reads(page, async () => {
    const start = performance.now();
    await page.goto(`/p/${big}/list`);
    await page.getByRole('link', { name: `${big}-1`, exact: true }).waitFor();
    const last = page.getByRole('link', { name: lastKey, exact: true });
    while (!(await last.count())) {
      await page.mouse.wheel(0, 50_000);
      await page.waitForFunction(() => !document.querySelector('.more-rows[disabled]'));
    }
    await last.scrollIntoViewIfNeeded();
    scrolled = performance.now() - start;
    rowsInDom = await page.locator('tr[data-row-task]').count();
  });
  const pages = listReads.filter((r) => r.url.includes('/tasks/'));
  console.log(
    `list of ${CHANGE_SIZE} tasks scrolled to its last task: ${scrolled.toFixed(0)} ms, ${pages.length} pages, ${kb(pages.reduce((s, r) => s + r.bytes, 0))} (rows in the DOM: ${rowsInDom})`,
  );
} finally {
  await world.close();
}
