import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseLastPrice, parseLastPriceMap, parsePriceHistory, parsePriceHistoryMap, parsePriceRate, parsePriceRateMap,
  parseTicker, parseTickerMap, tickerToWire, type Ticker,
} from '../../../framework/model/resources/ticker.js';
import { decimalText, timeMs } from './arbitraries.js';

const sample = {
  ask: '0.020572',
  bid: '0.020566',
  last: '0.020574',
  low: '0.020388',
  high: '0.021084',
  open: '0.020913',
  volume: '138444.3666',
  volume_quote: '2853.6874972480',
  timestamp: '2021-06-02T17:52:36.731Z',
};

describe('ticker', () => {
  it('reads a keyed response keeping exact text, and nulls for "no data"', () => {
    const map = parseTickerMap({ ETHBTC: sample, NEWCOIN: { ...sample, ask: null, bid: null, last: null, open: null } });
    expect(map['ETHBTC']?.volume_quote).toBe('2853.6874972480');
    expect(map['ETHBTC']?.timestamp).toBe(Date.UTC(2021, 5, 2, 17, 52, 36, 731));
    expect(map['NEWCOIN']?.ask).toBeNull();
  });

  it('names the failing field', () => {
    expect(() => parseTickerMap({ ETHBTC: { ...sample, low: null } })).toThrow(/tickers\.ETHBTC\.low: must be a decimal number/);
    expect(() => parseTicker({ ...sample, timestamp: 'yesterday' })).toThrow(/ticker\.timestamp/);
  });

  it('round-trips', () => {
    const nullable = fc.option(decimalText(), { nil: null });
    const arb: fc.Arbitrary<Ticker> = fc.record({
      ask: nullable, bid: nullable, last: nullable, low: decimalText(), high: decimalText(), open: nullable,
      volume: decimalText(), volume_quote: decimalText(), timestamp: timeMs(),
    });
    fc.assert(
      fc.property(arb, (t) => {
        expect(parseTicker(JSON.parse(JSON.stringify(tickerToWire(t))))).toEqual(t);
      }),
    );
  });
});

describe('price endpoints', () => {
  it('reads rate, last price and history samples', () => {
    const rate = parsePriceRateMap({ ETH: { currency: 'BTC', price: '0.021', timestamp: '2021-07-07T20:08:16.123Z' } });
    expect(rate['ETH']?.price).toBe('0.021');
    expect(parseLastPriceMap({ BTCUSDT: { price: '34010.48', timestamp: '2021-07-07T20:08:16.123Z' } })['BTCUSDT']?.price).toBe('34010.48');
    const hist = parsePriceHistoryMap({
      ETH: { currency: 'BTC', history: [{ timestamp: '2021-07-01T20:00:00.000Z', open: '0.063', close: '0.064', min: '0.062', max: '0.065' }] },
    });
    expect(hist['ETH']?.history[0]?.max).toBe('0.065');
  });

  it('names the failing field', () => {
    expect(() => parsePriceRate({ currency: 'BTC', timestamp: 1 })).toThrow(/rate\.price: is required/);
    expect(() => parseLastPrice({ price: '1' })).toThrow(/price\.timestamp: is required/);
    expect(() => parsePriceHistory({ currency: 'BTC', history: [{ timestamp: 1, open: '1', close: '1', min: '1' }] }))
      .toThrow(/history\.history\[0\]\.max: is required/);
  });
});
