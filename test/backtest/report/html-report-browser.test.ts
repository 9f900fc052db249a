import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeReport } from '../../../backtest/report/write-report.js';
import { dec } from '../../../framework/model/decimal.js';
import { checkReportInBrowser, chromiumAvailable } from '../../../bench/support/report-browser.js';
import { sampleResult } from './result-fixture.js';

const dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-report-browser-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Needs Debian's Chromium (/usr/bin/chromium); without it the page is only checked as data.
describe.skipIf(!chromiumAvailable())('the HTML report in headless Chromium', () => {
  it('draws every chart with a legend, shows a fill tooltip, logs no error and requests nothing', async () => {
    const result = sampleResult({
      bookTops: { BTCUSDT: [0, 60_000, 120_000, 180_000, 240_000].map((t, i) => ({ time: t, bid: dec(String(99.5 + i * 3)), ask: dec(String(100.5 + i * 3)) })) },
      indicators: [
        { id: 'fast', label: 'fast SMA 2', pane: 'price', symbol: 'BTCUSDT', points: [60_000, 120_000, 180_000, 240_000].map((t, i) => ({ time: t, value: 101 + i * 3 })) },
        { id: 'rsi', label: 'rsi', pane: 'separate', symbol: 'BTCUSDT', points: [60_000, 240_000].map((t, i) => ({ time: t, value: 40 + i * 20 })) },
      ],
    });
    const written = await writeReport(result, dir);
    const check = await checkReportInBrowser(written.html);
    expect(check.consoleErrors).toEqual([]);
    expect(check.networkRequests).toEqual([]);
    expect(check.charts.map((c) => c.id)).toEqual(['price-0', 'equity', 'positions']);
    for (const chart of check.charts) {
      expect(chart.canvases).toBeGreaterThan(0);
      // A blank canvas holds one or two colours (background, border); drawn series add more.
      expect(chart.colours).toBeGreaterThan(3);
    }
    expect(check.legends).toBe(3);
    expect(check.overflowing).toEqual([]);
    expect(check.fillTooltip).toMatch(/^(BUY 1 @ 100 {2}fee 0\.1 USDT \(maker\)|SELL 1 @ 110 {2}fee 0\.1 USDT \(taker\))/);
  }, 60_000);
});
