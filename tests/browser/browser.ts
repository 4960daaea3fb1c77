import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { WEB_DIST } from '../../src/http/web-app.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';

/** Debian's Chromium; `.ci/run` installs it when missing. */
export const CHROMIUM = '/usr/bin/chromium';
const hasChromium = fs.existsSync(CHROMIUM);
const hasBuild = fs.existsSync(path.join(WEB_DIST, 'index.html'));

/** Why browser tests cannot run here, or null when they can. */
export const skipReason: string | null = !hasChromium
  ? `browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`
  : !hasBuild
    ? 'browser tests skipped: the web app is not built (npm run build:web)'
    : null;

let warned = false;
/** Prints the one line that says why the browser tests did not run. */
export function noteSkip(): void {
  if (skipReason && !warned) {
    warned = true;
    console.warn(skipReason);
  }
}

export interface BrowserWorld {
  h: TestHarness;
  baseUrl: string;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** The real app listening on a loopback port over a fresh database, and one Chromium with one page. */
export async function openWorld<H extends TestHarness = TestHarness>(
  make: () => Promise<H> = () => createHarness() as Promise<H>,
): Promise<BrowserWorld & { h: H }> {
  const h = await make();
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  const address = h.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    baseURL: baseUrl,
    viewport: { width: 1280, height: 800 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(30_000);
  return {
    h,
    baseUrl,
    context,
    page,
    async close() {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
      await h.close();
    },
  };
}

/**
 * Space picks up the focused drag handle. dnd-kit starts listening for arrow keys on its next
 * timer turn and measures the drop targets in the frames after the pick-up, so an arrow sent the
 * moment the drag shows can be lost: wait for that timer turn and two frames before pressing one.
 */
export async function pickUpWithKeyboard(page: Page, dragging: Locator): Promise<void> {
  await page.keyboard.press('Space');
  await dragging.waitFor();
  await page.evaluate(
    () => new Promise((resolve) => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(resolve)), 0)),
  );
}
