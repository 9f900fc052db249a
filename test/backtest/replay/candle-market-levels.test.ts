import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CandleMarket } from '../../../backtest/replay/candle-market.js';
import type { BookFrame } from '../../../framework/exchange/book/order-book-frame.js';
import { Instrument } from '../../../framework/model/instrument.js';
import { parseSymbolInfo } from '../../../framework/model/resources/symbol.js';

function instrument(tick: string): Instrument {
  return new Instrument('TEST', parseSymbolInfo({
    type: 'spot', base_currency: 'TST', quote_currency: 'USD', tick_size: tick, quantity_increment: '0.001',
    take_rate: '0.002', make_rate: '0.001', fee_currency: 'USD',
  }));
}

/** `units` x 10^-2 as text, from integers only. */
function cents(units: bigint): string {
  const abs = units < 0n ? -units : units;
  return `${units < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/** Numeric value of a decimal text in cents (exact: every text here has at most two decimals). */
function inCents(text: string): bigint {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0'));
}

/** A side's level prices in cents, from either form of the frame (the prices here have at most two decimals). */
function pricesInCents(frame: BookFrame, side: 'ask' | 'bid'): bigint[] {
  if (frame.asks !== undefined) return (side === 'ask' ? frame.asks : frame.bids).map(([price]) => inCents(price));
  expect(frame.priceScale).toBe(2);
  const levels = side === 'ask' ? frame.askLevels : frame.bidLevels;
  return levels.filter((_, i) => i % 2 === 0).map((units) => BigInt(units));
}

describe('CandleMarket book around the next open', () => {
  it('puts the ask at open x (1 + bps) rounded up to the tick and the bid at open x (1 - bps) rounded down', () => {
    fc.assert(fc.property(
      fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.integer({ min: 0, max: 12_000 }), fc.constantFrom(1n, 5n, 25n),
      (openCents, bps, tickCents) => {
        const market = new CandleMarket(instrument(cents(tickCents)), bps);
        const frame = market.bookAround(cents(openCents), 0);
        // In cents: ceil / floor of open x (10000 +/- bps) / 10000 to a multiple of the tick.
        const step = 10_000n * tickCents;
        const up = openCents * BigInt(10_000 + bps);
        const down = openCents * BigInt(10_000 - bps);
        const ask = ((up + step - 1n) / step) * tickCents;
        const bid = down > 0n ? (down / step) * tickCents : 0n;
        // Integer slippage, an open on the grid and a product within 2^53: the frame carries scaled levels.
        if (up <= BigInt(Number.MAX_SAFE_INTEGER)) expect(frame.asks).toBeUndefined();
        expect(pricesInCents(frame, 'ask')).toEqual([ask]);
        expect(pricesInCents(frame, 'bid')).toEqual(bid > 0n ? [bid] : []);
      },
    ), { numRuns: 500 });
  });

  it('takes the decimal route for a fractional slippage and an off-grid open, with the same rounding', () => {
    const market = new CandleMarket(instrument('0.01'), 2.5);
    const frame = market.bookAround('100.005', 0);
    // 100.005 x 1.00025 = 100.03000125 -> 100.04; 100.005 x 0.99975 = 99.97999875 -> 99.97
    expect(frame.asks![0]![0]).toBe('100.04');
    expect(frame.bids![0]![0]).toBe('99.97');
  });

  it('walks the candle low first when it rose and high first when it fell, comparing exactly', () => {
    const market = new CandleMarket(instrument('0.01'), 0);
    const path = (o: string, c: string): string[] => market.pathTrades({ timestamp: 0, open: o, high: '12', low: '8', close: c, volume: '1', volumeQuote: '1' } as never, 0)
      .trades.map((t) => `${t.side} ${t.price}`);
    expect(path('10', '10.000000000000000001')).toEqual(['sell 10', 'sell 8', 'buy 12', 'sell 10.000000000000000001']);
    expect(path('10.000000000000000001', '10')).toEqual(['buy 10.000000000000000001', 'buy 12', 'sell 8', 'buy 10']);
  });

  it('trades only the close while no order works on the symbol, on the side the path ends with', () => {
    const market = new CandleMarket(instrument('0.01'), 0);
    const candle = (o: string, c: string): never => ({ timestamp: 0, open: o, high: '12', low: '8', close: c, volume: '1', volumeQuote: '1' }) as never;
    const traded = (o: string, c: string, idle: boolean): string[] => market.trades(candle(o, c), 0, idle).trades.map((t) => `${t.side} ${t.price}`);
    expect(traded('10', '11', true)).toEqual(['sell 11']);
    expect(traded('11', '10', true)).toEqual(['buy 10']);
    expect(traded('10', '11', false)).toEqual(['sell 10', 'sell 8', 'buy 12', 'sell 11']);
  });
});
