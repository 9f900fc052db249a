import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScaledHoldings } from '../../../backtest/replay/scaled-holdings.js';
import { Decimal } from '../../../framework/model/decimal.js';
import { Instrument } from '../../../framework/model/instrument.js';
import { parseSymbolInfo } from '../../../framework/model/resources/symbol.js';

function pair(base: string): Instrument {
  return new Instrument(`${base}USDT`, parseSymbolInfo({
    type: 'spot', base_currency: base, quote_currency: 'USDT', tick_size: '0.01', quantity_increment: '0.00001',
    take_rate: '0.002', make_rate: '0.001', fee_currency: 'USDT',
  }));
}

const INSTRUMENTS = [pair('BTC'), pair('ETH')];
const amount = fc.tuple(fc.integer({ min: 0, max: 10 ** 6 }), fc.integer({ min: 0, max: 8 })).map(([u, s]) => new Decimal(u).dividedBy(10 ** s));
const price = fc.tuple(fc.integer({ min: 1, max: 10 ** 5 }), fc.integer({ min: 0, max: 3 })).map(([u, s]) => new Decimal(u).dividedBy(10 ** s).toFixed(s));

/** `units` x 10^-scale, through BigInt text (not the code under test). */
function exact(units: number, scale: number): Decimal {
  return new Decimal(BigInt(units).toString()).dividedBy(new Decimal(10).pow(scale));
}

describe('ScaledHoldings', () => {
  it('values the quote at face value and every held currency at its price, exactly, asking prices in the balances\' order', () => {
    fc.assert(fc.property(amount, amount, amount, price, price, fc.boolean(), (usdt, btc, eth, btcPrice, ethPrice, ethFirst) => {
      const holdings = new ScaledHoldings('USDT', INSTRUMENTS);
      const entries: [string, Decimal][] = ethFirst ? [['ETH', eth], ['USDT', usdt], ['BTC', btc]] : [['USDT', usdt], ['BTC', btc], ['ETH', eth]];
      const balances = new Map(entries);
      const asked: string[] = [];
      const prices: Record<string, string> = { BTCUSDT: btcPrice, ETHUSDT: ethPrice };
      const units = holdings.value(balances, (symbol) => (asked.push(symbol), prices[symbol]));
      const expected = usdt.plus(btc.times(btcPrice)).plus(eth.times(ethPrice));
      const decimals = (text: string): number => (text.includes('.') ? text.length - text.indexOf('.') - 1 : 0);
      const scale = Math.max(usdt.decimalPlaces(), btc.isZero() ? 0 : btc.decimalPlaces() + decimals(btcPrice), eth.isZero() ? 0 : eth.decimalPlaces() + decimals(ethPrice));
      if (Number.isNaN(units)) {
        // Only when the value (a sum of non-negative terms) is beyond 2^53 - 1 units at the scale it needs.
        expect(expected.times(new Decimal(10).pow(scale)).greaterThan(Number.MAX_SAFE_INTEGER)).toBe(true);
      } else {
        expect(holdings.scale).toBe(scale);
        expect(exact(units!, holdings.scale).equals(expected)).toBe(true);
        expect(asked).toEqual(entries.filter(([c, a]) => c !== 'USDT' && !a.isZero()).map(([c]) => `${c}USDT`));
      }
    }), { numRuns: 300 });
  });

  it('keeps the largest scale it needed, so later samples share it', () => {
    const holdings = new ScaledHoldings('USDT', INSTRUMENTS);
    const balances = new Map([['USDT', new Decimal('10.123456')], ['BTC', new Decimal('1')]]);
    expect(holdings.value(balances, () => '100.5')).toBe(110_623_456);
    expect(holdings.scale).toBe(6);
    balances.set('USDT', new Decimal(10));
    holdings.balancesChanged();
    expect(holdings.value(balances, () => '100')).toBe(110_000_000);
    expect(holdings.scale).toBe(6);
  });

  it('has no value while a held currency has no price, and none in integers beyond 2^53 units', () => {
    const holdings = new ScaledHoldings('USDT', INSTRUMENTS);
    const balances = new Map([['USDT', new Decimal(5)], ['BTC', new Decimal('0.5')], ['XRP', new Decimal(3)]]);
    expect(holdings.value(balances, () => undefined)).toBeUndefined();
    // XRP: no symbol prices it.
    expect(holdings.value(balances, () => '2')).toBeUndefined();
    balances.delete('XRP');
    holdings.balancesChanged();
    expect(holdings.value(balances, () => '2')).toBe(60);
    balances.set('USDT', new Decimal('9007199254740.993'));
    holdings.balancesChanged();
    expect(holdings.value(balances, () => '2')).toBeNaN();
    balances.set('USDT', new Decimal('9007199254740992'));
    holdings.balancesChanged();
    expect(holdings.value(balances, () => '2')).toBeNaN();
    balances.set('USDT', new Decimal('1'));
    holdings.balancesChanged();
    expect(holdings.value(balances, () => '900719925474099.3')).toBeNaN();
  });
});
