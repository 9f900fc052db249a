import { describe, expect, it } from 'vitest';
import { chartLibrarySource } from '../../../backtest/report/chart-library.js';
import { HTML_FILL_ROWS, renderHtmlReport } from '../../../backtest/report/html-report.js';
import { computeMetrics } from '../../../backtest/report/metrics.js';
import { CHART_SAMPLES, type ReportData } from '../../../backtest/report/report-data.js';
import type { BacktestResult } from '../../../backtest/report/backtest-result.js';
import { dec } from '../../../framework/model/decimal.js';
import { bar, fill, meta, point, sampleResult } from './result-fixture.js';

function render(result: BacktestResult): string {
  return renderHtmlReport(result, computeMetrics(result));
}

/** The page without the inlined library, so failures print something readable. */
function page(html: string): string {
  return html.replace(chartLibrarySource(), '<library>');
}

function embedded(html: string): ReportData {
  const match = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html);
  expect(match).not.toBeNull();
  return JSON.parse(match![1]!) as ReportData;
}

describe('renderHtmlReport', () => {
  const html = render(sampleResult());
  const own = page(html);

  it('inlines the lightweight-charts standalone build and the page script', () => {
    expect(html.includes(chartLibrarySource())).toBe(true);
    expect(chartLibrarySource()).toContain('window.LightweightCharts=');
    expect(own).toMatch(/<script><library><\/script>/);
    expect(own).toContain('LW.createSeriesMarkers(');
    expect(own).toContain("position: 'atPriceMiddle', price: Number(f.price)");
  });

  it('references no network resource', () => {
    expect(/\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?\/\//i.test(html)).toBe(false);
    expect(own).not.toMatch(/<link\b|<script\s+src|<img\b|<iframe\b|@import|https?:/i);
    expect(own).toContain('attributionLogo: false');
  });

  it('embeds chart data that parses back, decimals as strings, each fill on its bar at its own price', () => {
    const data = embedded(html);
    expect(data.symbols).toEqual(['BTCUSDT']);
    const btc = data.prices['BTCUSDT']!;
    expect(btc.bars[1]).toEqual([60, '103', '104', '102', '103']);
    expect(btc.barSeconds).toBe(60);
    expect(btc.fills).toEqual([
      { time: 60, at: 65_500, side: 'buy', price: '100', quantity: '1', fee: '0.1', feeCurrency: 'USDT', liquidity: 'maker' },
      { time: 180, at: 190_000, side: 'sell', price: '110', quantity: '1', fee: '0.1', feeCurrency: 'USDT', liquidity: 'taker' },
    ]);
    expect(btc.fillCount).toBe(2);
    expect(btc.bid).toEqual([]);
    expect(btc.indicators).toEqual([]);
    expect(data.spanSeconds).toBe(300);
    expect(data.equity[0]).toEqual([0, '1000']);
    expect(data.drawdown.find(([t]) => t === 120)).toEqual([120, '-0.005']);
    expect(data.positions['BTCUSDT']!.map(([, q]) => q)).toEqual(['0', '0', '1', '1', '1', '0', '0', '0']);
  });

  it('draws the best bid/ask and the indicators at the bars that hold them (last value per bar)', () => {
    const withLines = sampleResult({
      bookTops: {
        BTCUSDT: [
          { time: 1_000, bid: dec('99.5'), ask: dec('100.5'), ownBid: dec('99.25') },
          { time: 61_000, bid: dec('102.5'), ask: dec('103.5') },
          { time: 119_000, bid: dec('102.75') },
          { time: 125_000, ask: dec('106.5') },
        ],
      },
      indicators: [
        { id: 'fast', label: 'fast SMA 2', pane: 'price', color: '#f9a825', symbol: 'BTCUSDT', points: [{ time: 60_000, value: 101.5 }, { time: 120_000, value: 104.5 }] },
        { id: 'rsi', label: 'rsi', pane: 'separate', symbol: 'BTCUSDT', points: [{ time: 30_000, value: 1 / 3 }] },
        { id: 'fast', label: 'fast SMA 2', pane: 'price', symbol: 'ETHUSDT', points: [{ time: 60_000, value: 7 }] },
      ],
    });
    const btc = embedded(render(withLines)).prices['BTCUSDT']!;
    expect(btc.bid).toEqual([[0, '99.5'], [60, '102.75']]);
    expect(btc.ask).toEqual([[0, '100.5'], [60, '103.5'], [120, '106.5']]);
    // The strategy's own quote: a gap (null) where it had none; no own ask at all, no series.
    expect(btc.ownBid).toEqual([[0, '99.25'], [60, null], [120, null]]);
    expect(btc.ownAsk).toEqual([]);
    expect(btc.indicators).toEqual([
      { id: 'fast', label: 'fast SMA 2', pane: 'price', color: '#f9a825', points: [[60, 101.5], [120, 104.5]] },
      // A separate pane keeps its own times; floats are cut to 10 significant digits.
      { id: 'rsi', label: 'rsi', pane: 'separate', points: [[30, 0.3333333333]] },
    ]);
  });

  it('thins a long run\'s equity out for the charts, keeping each bucket\'s deepest drawdown', () => {
    // Three days of minute samples: a slow rise with one sharp dip at sample 2000.
    const equity = Array.from({ length: 3 * 1440 }, (_, i) => point(i * 60_000, i === 2_000 ? '500' : String(1000 + i), '0'));
    const data = embedded(render(sampleResult({ equity, meta: meta({ endTime: 3 * 86_400_000 }) })));
    expect(data.equity.length).toBeLessThanOrEqual(CHART_SAMPLES);
    expect(data.equity.length).toBeGreaterThan(CHART_SAMPLES / 5);
    expect(data.drawdown).toHaveLength(data.equity.length);
    // Oracle: the deepest drawdown of the whole series, 500 against the peak of 2999 just before the dip.
    const deepest = Math.min(...data.drawdown.map(([, d]) => Number(d)));
    expect(deepest).toBeCloseTo(-(2999 - 500) / 2999, 8);
    expect(data.positions['BTCUSDT']!.length).toBe(data.equity.length);
  });

  it('gives the price scale as many decimals as the prices have, and the bar width in seconds', () => {
    const fine = sampleResult({ fills: [], prices: { BTCUSDT: [0, 5_000, 15_000].map((t) => bar(t, '0.00125')) } });
    const btc = embedded(render(fine)).prices['BTCUSDT']!;
    expect(btc.priceDecimals).toBe(5);
    expect(btc.barSeconds).toBe(5);
    // Bars from mids may have a decimal more than the tick: book and fill prices decide then.
    const mids = sampleResult({
      fills: [fill(65_500, 'buy', '100.25', '1')], prices: { BTCUSDT: [0, 60_000].map((t) => bar(t, '100.125')) },
      bookTops: { BTCUSDT: [{ time: 0, bid: dec('100.1'), ask: dec('100.15') }] },
    });
    expect(embedded(render(mids)).prices['BTCUSDT']!.priceDecimals).toBe(2);
  });

  it('shows the metrics, the run meta with the Sharpe period, and the fills', () => {
    expect(own).toContain('Net PnL');
    expect(own).toContain('9.80 USDT');
    expect(own).toContain('1m 00s (60000 ms)');
    expect(own).toContain('rec/btc.jsonl.gz');
    expect(own).toContain('&quot;spacing&quot;: &quot;0.5&quot;');
    expect(own).toContain('o,&quot;quoted&quot;');
    expect(own).toContain('No order book resyncs.');
  });

  it('escapes hostile text everywhere, so nothing closes a script early or injects markup', () => {
    const evil = '</script><script>alert(1)</script><!--';
    const hostile = sampleResult({
      meta: meta({
        strategy: '<b>bold</b>', params: { note: evil }, symbols: ['BTCUSDT', `X${evil}`],
        bookResyncs: [{ symbol: 'BTCUSDT', time: 1000, reason: '<img src=x>' }],
      }),
    });
    const out = page(render(hostile));
    expect(out).not.toContain('<b>bold</b>');
    expect(out).not.toContain('<img src=x>');
    expect(out).not.toContain('alert(1)</script>');
    expect(out.match(/<\/script>/g)).toHaveLength(3);
    expect(out).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(embedded(out).symbols).toEqual(['BTCUSDT', `X${evil}`]);
  });

  it('lists the first fills only and says where the rest are', () => {
    const fills = Array.from({ length: HTML_FILL_ROWS + 7 }, (_, i) =>
      fill(i * 1000, i % 2 === 0 ? 'buy' : 'sell', '100', '1', '0', { tradeId: `trade-${i}` }));
    const out = page(render(sampleResult({ fills })));
    expect(out).toContain(`First ${HTML_FILL_ROWS} of ${HTML_FILL_ROWS + 7} fills`);
    expect(out).toContain('fills.csv');
    expect(out).toContain(`>trade-${HTML_FILL_ROWS - 1}<`);
    expect(out).not.toContain(`>trade-${HTML_FILL_ROWS}<`);
  });

  it('is deterministic', () => {
    expect(render(sampleResult())).toBe(html);
  });
});
