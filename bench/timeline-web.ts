/**
 * `npm run bench:timeline`: the timeline and the calendar in Debian's Chromium against the real
 * app on loopback over a fresh database. For timelines of SIZES dated tasks (100, the baseline,
 * then 2,000) with a `blocks` link for every tenth task: the time to the first bar and to every
 * bar and arrow read; the DOM it holds (rows and bars drawn, not the whole project); then
 * FRAMES (150) frames of scrolling, 400 px each (turning back at either end, so every size
 * scrolls as long), with the frame times the browser
 * measured (median, p95 and the longest) and the frames over 50 ms; and a drag of a bar to its
 * saved date. The month calendar of the same project is timed to its first chip. Figures only:
 * the machine's load decides them, nothing asserts.
 */
import { performance } from 'node:perf_hooks';
import { openWorld, skipReason } from '../tests/browser/browser.ts';
import { signIn } from '../tests/browser/session.ts';

if (skipReason) {
  console.error(skipReason);
  process.exit(1);
}
const SIZES = (process.env.SIZES ?? '100,2000').split(',').map(Number);
const RUNS = Number(process.env.RUNS ?? 3);
const FRAMES = Number(process.env.FRAMES ?? 150);

const world = await openWorld();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const iso = (day: number) => new Date(Date.UTC(2026, 11, 1) + day * 86_400_000).toISOString().slice(0, 10);

try {
  const owner = await signIn(world);
  const { page } = world;
  await page.setViewportSize({ width: 1440, height: 900 });
  const request = async (method: 'POST' | 'PUT', url: string, body: unknown) => {
    const res = await world.h.request(method, url, { token: owner.bot.token, body });
    if (res.status >= 300) throw new Error(`${url}: ${res.status} ${res.text}`);
    return res.body.data;
  };

  /** `size` tasks due over four months, in four sprints, every tenth blocking the next. */
  const makeProject = async (key: string, size: number) => {
    await request('POST', '/api/v1/projects/', { name: `Timeline of ${size}`, key });
    await world.h.addMember(key, owner.userId, 'admin');
    const sprints: number[] = [];
    for (let s = 0; s < 4; s++)
      sprints.push((await request('POST', `/api/v1/projects/${key}/sprints/`, { name: `Sprint ${s + 1}` })).id);
    for (let i = 0; i < size; i += 100) {
      const tasks = Array.from({ length: Math.min(100, size - i) }, (_, j) => ({
        title: `Task number ${i + j + 1} with a longer title`,
        due_date: iso((i + j) % 120),
        sprint: sprints[(i + j) % 4],
      }));
      await request('POST', `/api/v1/projects/${key}/tasks/bulk/`, { tasks });
    }
    for (let n = 1; n + 1 <= size; n += 10)
      await request('POST', `/api/v1/tasks/${key}-${n}/link/`, { task: `${key}-${n + 1}`, type: 'blocks' });
  };

  const open = async (key: string) => {
    const start = performance.now();
    await page.goto(`/p/${key}/timeline`);
    await page.locator('[data-bar]').first().waitFor();
    const first = performance.now() - start;
    await page.locator('[data-link]').first().waitFor({ state: 'attached' });
    return { first, complete: performance.now() - start };
  };

  for (const size of SIZES) {
    const key = `T${size}`;
    await makeProject(key, size);
    const firsts: number[] = [];
    const completes: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const { first, complete } = await open(key);
      firsts.push(first);
      completes.push(complete);
    }
    const dom = await page.evaluate(() => ({
      rows: document.querySelectorAll('.tl-row').length,
      bars: document.querySelectorAll('[data-bar]').length,
      arrows: document.querySelectorAll('[data-link]').length,
      nodes: document.querySelectorAll('*').length,
    }));
    // Scrolls to the end one frame at a time and reads each frame's duration from the browser.
    // (A string: tsx would wrap named functions in a helper the page does not have.)
    const frames: number[] = await page.evaluate(
      `new Promise((resolve) => {
      const box = document.querySelector('.tl-scroll');
      const times = [];
      let last = performance.now();
      let step = 400;
      const frame = (now) => {
        times.push(now - last);
        last = now;
        if (times.length > FRAMES) return resolve(times.slice(1));
        // At either end it turns back, so every size scrolls the same number of frames.
        if (box.scrollTop + box.clientHeight + step > box.scrollHeight || box.scrollTop + step < 0) step = -step;
        box.scrollTop += step;
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    })`.replace('FRAMES', String(FRAMES)),
    );
    const sorted = [...frames].sort((a, b) => a - b);
    const lastBar = await page.locator('[data-bar]').last().getAttribute('data-bar');
    // A drag of the last bar drawn, three days to the right, to its new date saved.
    const bar = page.locator(`[data-bar="${lastBar}"]`);
    await bar.scrollIntoViewIfNeeded();
    const box = (await bar.boundingBox())!;
    const start = performance.now();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 42, box.y + box.height / 2, { steps: 4 });
    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes(`/tasks/${lastBar}/`));
    await page.mouse.up();
    await saved;
    const drag = performance.now() - start;

    const calStart = performance.now();
    await page.goto(`/p/${key}/calendar?date=2026-12-01`);
    await page.locator('[data-chip]').first().waitFor();
    const calendar = performance.now() - calStart;

    console.log(
      `timeline of ${size} tasks: first bar median ${median(firsts).toFixed(0)} ms, every bar and arrow ${median(completes).toFixed(0)} ms over ${RUNS}; ` +
        `DOM ${dom.rows} rows, ${dom.bars} bars, ${dom.arrows} arrows, ${dom.nodes} elements; ` +
        `scrolled ${frames.length} frames of 400 px: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, p95 ${sorted[Math.floor(sorted.length * 0.95)]!.toFixed(1)} ms, longest ${sorted.at(-1)!.toFixed(1)} ms, ${frames.filter((f) => f > 50).length} over 50 ms; ` +
        `drag to saved ${drag.toFixed(0)} ms; month calendar to first chip ${calendar.toFixed(0)} ms`,
    );
  }
} finally {
  await world.close();
}
