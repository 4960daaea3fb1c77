// Writes PNG screenshots of the web app's main screens to docs/screenshots/, from a seeded demo
// on a fresh database, in Debian's Chromium: `npm run screenshots` (SCREENSHOTS_DIR=/tmp/x to look
// without touching the committed ones).
import fs from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { notifyAboutEvents } from '../src/modules/notifications/notify.service.ts';
import { openWorld, skipReason } from '../tests/browser/browser.ts';
import { signIn } from '../tests/browser/session.ts';
import { createWebhookHarness } from '../tests/helpers/webhooks.ts';

if (skipReason) {
  console.error(skipReason);
  process.exit(1);
}
const out = path.resolve(process.env.SCREENSHOTS_DIR ?? 'docs/screenshots');
fs.mkdirSync(out, { recursive: true });

// The webhook harness resolves hooks.test (to loopback), so the demo has an endpoint without the network.
const world = await openWorld(() => createWebhookHarness({ allowPrivate: true }));
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
  const sprint = await api('POST', '/api/v1/projects/WEB/sprints/', {
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
  // Title, priority, labels, start and due dates, estimate (points), status, in the sprint.
  const seed: Array<[string, string, string[], string | null, string | null, number, string, boolean]> = [
    ['Landing page hero', 'High', ['frontend', 'design'], '2026-11-18', '2026-11-25', 5, 'In Progress', true],
    ['Pricing table', 'Medium', ['frontend'], '2026-11-23', '2026-11-28', 3, 'In Review', true],
    ['Contact form spam filter', 'Urgent', ['backend'], '2026-11-16', '2026-11-20', 2, 'In Progress', true],
    ['Cookie banner copy', 'Low', ['design'], null, null, 1, 'To Do', true],
    ['Image CDN', 'Medium', ['backend'], '2026-11-30', '2026-12-02', 3, 'To Do', false],
    ['Newsletter sign-up', 'Medium', ['frontend', 'backend'], null, null, 2, 'To Do', true],
    ['Accessibility audit', 'High', ['frontend'], '2026-12-03', '2026-12-05', 5, 'To Do', false],
    ['Staging environment', 'Medium', ['backend'], '2026-11-16', '2026-11-19', 3, 'Done', true],
    ['Brand colours', 'Low', ['design'], '2026-11-17', '2026-11-18', 1, 'Done', true],
  ];
  // Planned the day before the sprint starts, then its history spreads over its days, so the
  // reports have something to draw.
  world.h.clock.set('2026-11-15T15:00:00Z');
  const steps: Array<[string, string]> = [];
  for (const [title, priority, labels, start, due, points, status, inSprint] of seed) {
    const task = await api('POST', '/api/v1/projects/WEB/tasks/', {
      title,
      priority,
      labels,
      start_date: start,
      due_date: due,
      estimate: points,
      sprint: inSprint ? sprint.id : null,
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
    for (const step of path) steps.push([task.key, step]);
  }
  for (const [key, step] of steps) {
    world.h.clock.advance(20 * 3_600_000);
    await api('PUT', `/api/v1/tasks/${key}/`, { status: step });
  }
  await api('POST', '/api/v1/tasks/WEB-5/link/', { task: 'WEB-7', type: 'blocks' });
  world.h.clock.set('2026-11-26T16:00:00Z');
  await api('POST', '/api/v1/tasks/WEB-1/comments/', {
    body: 'The hero image is in the shared drive; use the **wide** crop.',
  });
  await api('PUT', '/api/v1/tasks/WEB-1/', {
    title: 'Landing page hero section',
    custom_fields: { [area.id]: area.options[0].id, [estimate.id]: 3 },
  });
  const handle = (
    await world.h.request('GET', '/api/v1/memberships/?limit=200', { token: owner.bot.token })
  ).body.data.find((m: { user: number }) => m.user === owner.userId).user_handle;
  await api('POST', '/api/v1/tasks/WEB-3/comments/', { body: `@${handle} can you check the filter on staging?` });
  // The worker's notify job: the owner, assignee of every task, hears of the bot's changes.
  await notifyAboutEvents(world.h.ctx);

  const hook = await api('POST', '/api/v1/webhooks/endpoints/', {
    url: 'https://hooks.test/tasktracker',
    description: 'Bugs to the team chat',
    format: 'slack',
    events: ['task.created', 'task.updated'],
    filter: 'label = backend AND status_category != done',
  });

  const view = await api('POST', '/api/v1/views/', {
    name: 'Backend in flight',
    query: 'label = backend AND status_category != done ORDER BY priority DESC',
    layout: 'list',
    project: 'WEB',
    shared: true,
  });

  const { page } = world;
  // Every screen in both themes, each checked with axe-core (no serious or critical violation).
  const problems: string[] = [];
  let theme: 'light' | 'dark' = 'light';
  const shot = async (name: string, fullPage = false) => {
    await page.waitForLoadState('networkidle');
    const file = `${name}${theme === 'dark' ? '-dark' : ''}.png`;
    await page.screenshot({ path: path.join(out, file), fullPage });
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    for (const v of result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'))
      problems.push(`${file}: ${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
    console.log(path.join(out, file));
  };
  for (theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/p/WEB/board');
    await page.getByRole('button', { name: /WEB-1 / }).waitFor();
    await shot('board');
    await page.getByRole('button', { name: /WEB-1 / }).click();
    await page.getByRole('complementary', { name: 'Task WEB-1' }).locator('.comments li').first().waitFor();
    await shot('task-panel');
    await page.goto('/t/WEB-1');
    await page.locator('.comments li').first().waitFor();
    await shot('task');
    await page.goto('/p/WEB/calendar?date=2026-11-26');
    await page
      .getByRole('button', { name: /WEB-2 Pricing table/ })
      .first()
      .waitFor();
    await shot('calendar');
    await page.goto('/p/WEB/timeline?zoom=day');
    await page.locator('[data-bar="WEB-7"]').waitFor();
    await shot('timeline');
    await page.goto('/p/WEB/reports');
    await page.getByRole('figure', { name: 'Burndown: Days' }).getByRole('table').waitFor();
    await shot('reports', true);
    await page.goto(`/views/${view.id}`);
    await page.getByRole('link', { name: 'WEB-3' }).waitFor();
    await shot('view');
    await page.goto('/p/WEB/settings');
    await page.getByRole('button', { name: 'Drag Done' }).waitFor();
    await page.getByRole('button', { name: 'Drag Docs' }).waitFor();
    await shot('project-settings', true);
    await page.goto('/p/WEB/list');
    await page.getByRole('link', { name: 'WEB-9' }).waitFor();
    await page.getByLabel('Select WEB-4').check();
    await page.getByLabel('Select WEB-5').check();
    await shot('list');
    await page.keyboard.press('Control+k');
    await page.keyboard.type('go');
    await page.getByRole('option', { name: 'Go to my work' }).waitFor();
    await shot('palette');
    await page.keyboard.press('Escape');
    await page.goto('/my-work');
    await page.getByRole('link', { name: /WEB-3/ }).waitFor();
    await shot('my-work');
    const bar = page.getByRole('combobox', { name: 'Query' });
    await bar.fill('label = backend AND stauts = Done');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'stauts' }).waitFor();
    await bar.fill('label = backend AND ');
    await bar.press('End');
    await page.getByRole('listbox', { name: 'Suggestions' }).waitFor();
    await shot('query-bar');
    await page.keyboard.press('Escape');
    await page.goto('/standups');
    if (theme === 'light') await page.getByRole('button', { name: 'Redraft from my activity' }).click();
    await page.locator('.state-draft').waitFor();
    await shot('standup');
    await page.goto('/inbox');
    await page.locator('.inbox-open', { hasText: 'mentioned you' }).waitFor();
    await shot('inbox');
    await page.goto('/projects');
    await page.getByRole('link', { name: /Website relaunch/ }).waitFor();
    await shot('projects');
    await page.goto('/settings/people');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByRole('cell', { name: 'Ada Lovelace', exact: true }).waitFor();
    await shot('settings', true);
    await page.goto('/settings/invitations');
    await page.getByRole('checkbox', { name: 'Website relaunch (WEB)' }).check();
    await shot('settings-invitations');
    await page.goto(`/settings/webhooks/${hook.id}`);
    await page.getByRole('button', { name: 'Disable endpoint' }).waitFor();
    await shot('settings-webhook', true);
    await page.goto('/settings/audit');
    await page.getByRole('cell', { name: 'webhook.created' }).waitFor();
    await shot('settings-audit');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/p/WEB/board');
    await page.getByRole('button', { name: /WEB-4 / }).waitFor();
    await shot('board-phone');
    await page.goto('/t/WEB-1');
    await page.locator('.comments li').first().waitFor();
    await shot('task-phone');
    await page.goto('/inbox');
    await page.locator('.inbox-open', { hasText: 'mentioned you' }).waitFor();
    await shot('inbox-phone');
    await page.goto('/p/WEB/list');
    await page.getByRole('link', { name: 'WEB-9' }).waitFor();
    await shot('list-phone');
    await page.goto('/p/WEB/calendar?date=2026-11-26&mode=week');
    await page
      .getByRole('button', { name: /WEB-2 Pricing table/ })
      .first()
      .waitFor();
    await shot('calendar-phone');
    await page.goto('/p/WEB/timeline?zoom=day');
    await page.locator('[data-bar="WEB-7"]').waitFor();
    await shot('timeline-phone');
    await page.goto('/p/WEB/reports');
    await page.getByRole('figure', { name: 'Burndown: Days' }).getByRole('table').waitFor();
    await shot('reports-phone');
    await page.goto('/my-work');
    await page.getByRole('link', { name: /WEB-3/ }).waitFor();
    await shot('my-work-phone');
    await page.goto('/settings/webhooks');
    await page.getByRole('link', { name: 'https://hooks.test/tasktracker' }).waitFor();
    await shot('settings-phone');
    await page.goto('/settings/audit');
    await page.getByRole('cell', { name: 'webhook.created' }).waitFor();
    await shot('settings-audit-phone');
  }
  if (problems.length) {
    console.error(`axe-core found serious or critical violations:\n${problems.join('\n')}`);
    process.exitCode = 1;
  }
} finally {
  await world.close();
}
