import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); a test never downloads a browser of its own. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * Flags without which Chromium stalls on this closed network: it would keep trying to reach
 * Google's update, sync and field-trial hosts.
 */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where browser tests leave their screenshots for a person to look at (not committed). */
export const SCREENSHOT_DIR = join(__dirname, '../../../../reports/screenshots');

export interface TestBrowser {
  /** A persistent context on a fresh user-data directory: pages share storage, as tabs of one browser do. */
  context: BrowserContext;
  newPage(): Promise<Page>;
  /** Saves `reports/screenshots/<name>.png` and returns its path. */
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

/** Starts Debian's headless Chromium with a fresh profile, as a reader's or a staff member's browser. */
export async function launchBrowser(options: { locale?: string; viewport?: { width: number; height: number } } = {}): Promise<TestBrowser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'gatehouse-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    locale: options.locale ?? 'en-US',
    viewport: options.viewport ?? { width: 1280, height: 800 },
  });
  return {
    context,
    newPage: () => context.newPage(),
    async screenshot(page, name) {
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const path = join(SCREENSHOT_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** A separate browser process, for when two profiles must not share storage (two readers). */
export async function launchBareBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}
