import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';

/** Debian's Chromium, the browser the report is checked in. */
export const CHROMIUM = '/usr/bin/chromium';

/** Whether {@link CHROMIUM} is installed (browser checks skip without it). */
export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}

/** One chart canvas area as the page drew it. */
export interface RenderedChart {
  readonly id: string;
  readonly canvases: number;
  /** Distinct colours among sampled pixels of its canvases: 1 or 2 means blank. */
  readonly colours: number;
  readonly width: number;
  readonly height: number;
}

/** What {@link checkReportInBrowser} saw. */
export interface BrowserCheck {
  readonly consoleErrors: readonly string[];
  /** Requests that left the page for anything but the report file itself. */
  readonly networkRequests: readonly string[];
  readonly charts: readonly RenderedChart[];
  readonly legends: number;
  /** Elements wider than the viewport (clipped or forcing a horizontal scroll). */
  readonly overflowing: readonly string[];
  /** The text of the first fill tooltip the mouse brought up on the first price chart, if any did. */
  readonly fillTooltip?: string;
}

/**
 * Runs in the page (a string: the project compiles without the DOM's types): per `.chart`, its
 * canvases and the distinct colours among sampled pixels; the legends; elements past the viewport.
 */
const PAGE_PROBE = String.raw`(() => {
  const charts = Array.from(document.querySelectorAll('.chart')).map((el) => {
    const canvases = Array.from(el.querySelectorAll('canvas'));
    const colours = new Set();
    for (const canvas of canvases) {
      const context = canvas.getContext('2d');
      if (context === null || canvas.width === 0 || canvas.height === 0) continue;
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
      const step = Math.max(4, Math.floor(pixels.length / 4 / 20000) * 4);
      for (let i = 0; i < pixels.length; i += step) colours.add(pixels[i] + ',' + pixels[i + 1] + ',' + pixels[i + 2] + ',' + pixels[i + 3]);
    }
    const box = el.getBoundingClientRect();
    return { id: el.id, canvases: canvases.length, colours: colours.size, width: box.width, height: box.height };
  });
  const width = document.documentElement.clientWidth;
  const overflowing = Array.from(document.body.querySelectorAll('*'))
    .filter((el) => el.getBoundingClientRect().right > width + 1 && el.closest('.scroll') === null)
    .map((el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (typeof el.className === 'string' && el.className ? '.' + el.className.split(' ').join('.') : ''));
  return { charts, legends: Array.from(document.querySelectorAll('.legend')).filter((el) => el.children.length > 0).length, overflowing };
})()`;

/**
 * Opens `htmlFile` in headless Chromium at 1280x800, waits for the charts, and reports console
 * errors, outgoing requests, each chart's canvases and how many colours they hold, the legends,
 * and elements overflowing the viewport. Saves a full-page PNG to `screenshot` when given.
 */
export async function checkReportInBrowser(htmlFile: string, screenshot?: string): Promise<BrowserCheck> {
  const profile = mkdtempSync(path.join(tmpdir(), 'tradeloop-chromium-'));
  // A fresh profile per run (launchPersistentContext is how playwright takes --user-data-dir).
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, viewport: { width: 1280, height: 800 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    const consoleErrors: string[] = [];
    const networkRequests: string[] = [];
    const own = pathToFileURL(htmlFile).href;
    page.on('console', (message) => { if (message.type() === 'error') consoleErrors.push(message.text()); });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    page.on('request', (request) => { if (request.url() !== own) networkRequests.push(request.url()); });
    await page.goto(own, { waitUntil: 'load' });
    // lightweight-charts paints on the next animation frames.
    await page.waitForTimeout(500);
    const seen = (await page.evaluate(PAGE_PROBE)) as Omit<BrowserCheck, 'consoleErrors' | 'networkRequests' | 'fillTooltip'>;
    if (screenshot !== undefined) {
      await page.screenshot({ path: screenshot.replace(/\.png$/, '-screen.png') });
      await page.screenshot({ path: screenshot, fullPage: true });
      // The charts alone, at full size.
      const charts = page.locator('#charts');
      if ((await charts.count()) > 0) await charts.screenshot({ path: screenshot.replace(/\.png$/, '-charts.png') });
    }
    const tooltip = await hoverUntilTooltip(page, screenshot?.replace(/\.png$/, '-tooltip.png'));
    return { consoleErrors, networkRequests, ...seen, fillTooltip: tooltip };
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/**
 * Sweeps the mouse across the first price chart until a fill tooltip shows; returns its text
 * (undefined when none showed) and saves the chart with it to `screenshot` when given.
 */
async function hoverUntilTooltip(page: Page, screenshot: string | undefined): Promise<string | undefined> {
  const chart = page.locator('#price-0');
  if ((await chart.count()) === 0) return undefined;
  await chart.scrollIntoViewIfNeeded();
  const box = await chart.boundingBox();
  if (box === null) return undefined;
  const tip = page.locator('.tooltip').first();
  for (let x = box.x + 4; x < box.x + box.width - 100; x += 2) {
    await page.mouse.move(x, box.y + box.height / 2);
    if ((await tip.count()) > 0 && (await tip.isVisible())) {
      if (screenshot !== undefined) await page.locator('#price-0').locator('xpath=..').screenshot({ path: screenshot });
      return (await tip.textContent()) ?? '';
    }
  }
  return undefined;
}
