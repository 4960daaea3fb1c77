import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteSkip, openWorld, skipReason, type BrowserWorld } from './browser.ts';

noteSkip();

/** The API reference still works under its Content-Security-Policy (docs/operating/security.md). */
describe.skipIf(skipReason !== null)('the API reference in Chromium', { timeout: 180_000 }, () => {
  let w: BrowserWorld;
  beforeAll(async () => {
    w = await openWorld();
  });
  afterAll(async () => w?.close());

  it('renders the operations with nothing refused by its policy', async () => {
    const { page } = w;
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
    });
    const response = await page.goto('/docs/reference/');
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await page.locator('.swagger-ui .opblock').first().waitFor();
    expect(await page.locator('.swagger-ui .opblock').count()).toBeGreaterThan(20);
    expect(refused).toEqual([]);
  });
});
