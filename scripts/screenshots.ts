// Writes PNG screenshots of the web app's main screens to docs/screenshots/, from a seeded demo
// on a fresh database, in Debian's Chromium: `npm run screenshots`.
import fs from 'node:fs';
import path from 'node:path';
import { openWorld, skipReason } from '../tests/browser/browser.ts';
import { signIn } from '../tests/browser/session.ts';

if (skipReason) {
  console.error(skipReason);
  process.exit(1);
}
const out = path.resolve('docs/screenshots');
fs.mkdirSync(out, { recursive: true });

const world = await openWorld();
try {
  const owner = await signIn(world);
  const api = async (method: 'POST' | 'PUT', url: string, body: unknown) => {
    const res = await world.h.request(method, url, { token: owner.bot.token, body });
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
    return res.body.data;
  };
  await api('POST', '/api/v1/projects/', { name: 'Website relaunch', key: 'WEB' });
  await world.h.addMember('WEB', owner.userId, 'admin');
  for (const [name, color] of [
    ['frontend', '#1f5fbf'],
    ['backend', '#17613a'],
    ['design', '#8a4b00'],
  ] as const) {
    await api('POST', '/api/v1/projects/WEB/labels/', { name, color });
  }
  const project = (await world.h.request('GET', '/api/v1/projects/', { token: owner.bot.token })).body.data.find(
    (p: { key: string }) => p.key === 'WEB',
  );
  await api('POST', '/api/v1/projects/WEB/sprints/', {
    name: 'Sprint 12',
    start_date: '2026-11-16',
    end_date: '2026-11-27',
    state: 'active',
    goal: 'Landing page live',
  });
  await api('POST', '/api/v1/projects/WEB/milestones/', { name: 'Public beta', due_date: '2026-12-10' });
  const area = await api('POST', '/api/v1/custom-fields/', {
    name: 'Area',
    type: 'select',
    projects: [project.id],
    options: ['Marketing site', 'Shop', 'Docs'],
  });
  const estimate = await api('POST', '/api/v1/custom-fields/', {
    name: 'Estimate (days)',
    type: 'number',
    projects: [project.id],
  });
  const seed: Array<[string, string, string[], string | null, string]> = [
    ['Landing page hero', 'High', ['frontend', 'design'], '2026-11-25', 'In Progress'],
    ['Pricing table', 'Medium', ['frontend'], '2026-11-28', 'In Review'],
    ['Contact form spam filter', 'Urgent', ['backend'], '2026-11-20', 'In Progress'],
    ['Cookie banner copy', 'Low', ['design'], null, 'To Do'],
    ['Image CDN', 'Medium', ['backend'], '2026-12-02', 'To Do'],
    ['Newsletter sign-up', 'Medium', ['frontend', 'backend'], null, 'To Do'],
    ['Accessibility audit', 'High', ['frontend'], '2026-12-05', 'To Do'],
    ['Staging environment', 'Medium', ['backend'], null, 'Done'],
    ['Brand colours', 'Low', ['design'], null, 'Done'],
  ];
  for (const [title, priority, labels, due, status] of seed) {
    const task = await api('POST', '/api/v1/projects/WEB/tasks/', {
      title,
      priority,
      labels,
      due_date: due,
      assignee: owner.userId,
      description: `## Goal\n\n${title} ships with the relaunch.\n\n- [x] Sketch\n- [ ] Build\n- [ ] Review with **design**`,
    });
    const path =
      {
        'To Do': [],
        'In Progress': ['In Progress'],
        'In Review': ['In Progress', 'In Review'],
        Done: ['In Progress', 'Done'],
      }[status] ?? [];
    for (const step of path) await api('PUT', `/api/v1/tasks/${task.key}/`, { status: step });
  }
  await api('POST', '/api/v1/tasks/WEB-1/comments/', {
    body: 'The hero image is in the shared drive; use the **wide** crop.',
  });
  await api('PUT', '/api/v1/tasks/WEB-1/', {
    title: 'Landing page hero section',
    custom_fields: { [area.id]: area.options[0].id, [estimate.id]: 3 },
  });

  const { page } = world;
  const shot = async (name: string, fullPage = false) => {
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: path.join(out, `${name}.png`), fullPage });
    console.log(`docs/screenshots/${name}.png`);
  };
  await page.goto('/p/WEB/board');
  await page.getByRole('button', { name: /WEB-1 / }).waitFor();
  await shot('board');
  await page.goto('/t/WEB-1');
  await page.locator('.comments li').first().waitFor();
  await shot('task');
  await page.goto('/p/WEB/settings');
  await page.getByRole('button', { name: 'Drag Done' }).waitFor();
  await page.getByRole('button', { name: 'Drag Docs' }).waitFor();
  await shot('project-settings', true);
  await page.goto('/p/WEB/list');
  await page.getByRole('link', { name: 'WEB-9' }).waitFor();
  await page.getByLabel('Select WEB-4').check();
  await page.getByLabel('Select WEB-5').check();
  await shot('list');
  await page.goto('/my-work');
  await page.getByRole('link', { name: /WEB-3/ }).waitFor();
  await shot('my-work');
  await page.goto('/standups');
  await page.getByRole('button', { name: 'Redraft from my activity' }).click();
  await page.locator('.state-draft').waitFor();
  await shot('standup');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/p/WEB/board');
  await page.getByRole('button', { name: /WEB-4 / }).waitFor();
  await shot('board-phone');
} finally {
  await world.close();
}
