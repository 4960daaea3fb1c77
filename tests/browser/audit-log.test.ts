import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { noteSkip, openWorld, skipReason, type BrowserWorld } from './browser.ts';
import { signIn, type SignedIn } from './session.ts';

noteSkip();

/** Settings → Audit log in Chromium: the newest records, paging to older ones, the filters and the export. */
describe.skipIf(skipReason !== null)('the audit log screen in Chromium', { timeout: 180_000 }, () => {
  let w: BrowserWorld;
  let owner: SignedIn;
  let total: number;
  const rows = () => w.page.getByRole('table', { name: 'Audit records, newest first' }).locator('tbody tr');

  beforeAll(async () => {
    w = await openWorld();
    owner = await signIn(w);
    // 55 service accounts with a token each, made at the command line on the first day; a project the next day.
    for (let i = 1; i <= 55; i++) await w.h.actor({ org: owner.org });
    w.h.clock.advance(86_400_000);
    await w.h.project(owner.bot, 'LATE', 'Late project');
    const org = await w.h.ctx.db
      .selectFrom('organizations')
      .select('id')
      .where('slug', '=', owner.org)
      .executeTakeFirstOrThrow();
    const counted = await w.h.ctx.db
      .selectFrom('audit_records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', org.id)
      .executeTakeFirstOrThrow();
    total = Number(counted.n);
  }, 170_000);
  afterAll(async () => {
    await w?.close();
  });

  it('lists the newest records first and pages to the older ones', async () => {
    const { page } = w;
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Audit log' }).click();
    await page.waitForURL('**/settings/audit');
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await rows().first().waitFor();
    expect(await rows().count()).toBe(50);
    const newest = rows().first();
    expect(await newest.getByRole('cell').allInnerTexts()).toEqual([
      expect.any(String),
      expect.stringMatching(/^bot-\d+\nAPI token\n127\.0\.0\.1$/),
      expect.stringMatching(/^project\.created\n\S+$/),
      'project LATE Late project',
      'key: LATE\nname: Late project',
    ]);
    await expectAccessible(page, 'audit log');
    // On a phone the table scrolls sideways: a keyboard can reach its hidden columns.
    const wide = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page, 'audit log on a phone');
    await page.setViewportSize(wide);
    await page.getByRole('button', { name: 'Show older records' }).click();
    await expect.poll(() => rows().count()).toBe(total);
    expect(await page.getByRole('button', { name: 'Show older records' }).count()).toBe(0);
    // The oldest: the first service account's token, made at the command line before the owner signed in.
    expect((await rows().last().getByRole('cell').allInnerTexts()).slice(1, 3)).toEqual([
      'operator\ncommand line',
      expect.stringMatching(/^token\.created\naudit_[0-9a-f]{32}$/),
    ]);
  });

  it('filters by action, person and day, and exports what the filters show', async () => {
    const { page } = w;
    await page.getByLabel('Action').selectOption('sign_in.succeeded');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect.poll(() => rows().count()).toBe(1);
    expect(await rows().first().getByRole('cell').nth(1).innerText()).toBe('Ada Lovelace\nsigned in\n127.0.0.1');

    await page.getByLabel('Action').selectOption('');
    await page.getByLabel('Person').selectOption({ label: 'Ada Lovelace' });
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect.poll(() => rows().count()).toBe(1);

    await page.getByLabel('Person').selectOption('');
    await page.getByLabel('From').fill('2026-11-22');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect.poll(() => rows().count()).toBe(1);
    expect(await rows().first().getByRole('cell').nth(3).innerText()).toBe('project LATE Late project');
    expect(await page.getByRole('button', { name: 'Show older records' }).count()).toBe(0);

    const csv = await page.request.get(
      (await page.getByRole('link', { name: 'CSV', exact: true }).getAttribute('href'))!,
    );
    expect(csv.status()).toBe(200);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^id,occurred_at,action,/);
    expect(lines[1]).toContain(',project.created,');
    expect(lines[1]).toContain(',LATE,');
    const jsonl = await page.request.get((await page.getByRole('link', { name: 'JSON lines' }).getAttribute('href'))!);
    expect(
      (await jsonl.text())
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).target.name),
    ).toEqual(['LATE Late project']);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    // Back to the whole log as it was shown, older pages included.
    await expect.poll(() => rows().count()).toBe(total);
    expect(await page.getByLabel('From').inputValue()).toBe('');
  });
});
