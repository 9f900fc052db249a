import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../framework/model/decimal.js';
import { UnrepresentableValueError } from '../../framework/model/errors.js';
import { Instrument } from '../../framework/model/instrument.js';
import { parseSymbolInfo } from '../../framework/model/resources/symbol.js';
import { quoteFactors, quoteTicksAt } from '../../strategies/market-maker/quote-prices.js';

const instrument = (tick: string): Instrument => new Instrument('ETHUSDT', parseSymbolInfo({
  type: 'spot', base_currency: 'ETH', quote_currency: 'USDT', quantity_increment: '0.0001', tick_size: tick,
  take_rate: '0.001', make_rate: '0.001', fee_currency: 'USDT',
}));

/** Decimal arithmetic at 200 significant digits: the quote formula computed apart, far beyond any rounding that could move a tick. */
const Wide = Decimal.clone({ precision: 200 });

/** The market maker's formula, step by step as documented, in wide decimals. */
function oracle(tick: string, mid: string, inventory: string, maxInventory: string, halfSpreadBps: string, skewBps: string): { bid: string; ask: string } {
  const ratio = Wide.min(1, Wide.max(-1, new Wide(inventory).div(maxInventory)));
  const center = new Wide(mid).times(new Wide(1).minus(new Wide(skewBps).times(ratio).div(10_000)));
  const half = new Wide(halfSpreadBps).div(10_000);
  const bid = center.times(new Wide(1).minus(half)).div(tick).floor();
  let ask = center.times(new Wide(1).plus(half)).div(tick).ceil();
  if (ask.lessThanOrEqualTo(bid)) ask = bid.plus(1);
  return { bid: bid.toFixed(), ask: ask.toFixed() };
}

const decimalText = (min: number, max: number, scale: number): fc.Arbitrary<string> =>
  fc.integer({ min, max }).map((n) => new Decimal(n).div(10 ** scale).toFixed());

describe('quoteTicksAt', () => {
  const ticks = ['0.01', '1', '0.0001', '0.05', '10', '0.25'];

  it('equals the documented formula computed in wide decimals, for any tick, mid, inventory and spreads', () => {
    fc.assert(fc.property(
      fc.constantFrom(...ticks), decimalText(1, 900_000_000, 5), decimalText(-5_000, 5_000, 3), decimalText(1, 3_000, 3),
      decimalText(0, 5_000, 2), decimalText(0, 5_000, 2),
      (tick, mid, inventory, maxInventory, halfSpreadBps, skewBps) => {
        const factors = quoteFactors({
          inventory: new Decimal(inventory), maxInventory: new Decimal(maxInventory), halfSpreadBps: new Decimal(halfSpreadBps), skewBps: new Decimal(skewBps),
        });
        const got = quoteTicksAt(instrument(tick), mid, factors);
        const want = oracle(tick, mid, inventory, maxInventory, halfSpreadBps, skewBps);
        expect({ bid: String(got.bidTicks), ask: String(got.askTicks) }).toEqual(want);
      },
    ), { numRuns: 3000 });
  });

  it('rounds a bid down and an ask up to the tick, and keeps them a tick apart when they meet', () => {
    const flat = quoteFactors({ inventory: new Decimal(0), maxInventory: new Decimal(1), halfSpreadBps: new Decimal(0), skewBps: new Decimal(0) });
    expect(quoteTicksAt(instrument('0.01'), '2500.125', flat)).toEqual({ bidTicks: 250_012, askTicks: 250_013 });
    expect(quoteTicksAt(instrument('0.01'), '2500.12', flat)).toEqual({ bidTicks: 250_012, askTicks: 250_013 });
    expect(quoteTicksAt(instrument('0.25'), '100.3', flat)).toEqual({ bidTicks: 401, askTicks: 402 });
  });

  it('refuses a quote beyond 2^53 - 1 ticks with a typed error', () => {
    const flat = quoteFactors({ inventory: new Decimal(0), maxInventory: new Decimal(1), halfSpreadBps: new Decimal(10), skewBps: new Decimal(0) });
    expect(() => quoteTicksAt(instrument('0.0001'), '9007199254740993', flat)).toThrow(UnrepresentableValueError);
  });
});
