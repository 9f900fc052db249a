import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CANDLE_PERIODS, candleToWire, isCandlePeriod, parseCandle, parseCandleList, parseCandleMap, type Candle,
} from '../../../framework/model/resources/candle.js';
import { decimalText, timeMs } from './arbitraries.js';

const sample = {
  timestamp: '2021-07-07T20:00:00.000Z', open: '0.020588', close: '0.020585', min: '0.020568', max: '0.020599',
  volume: '47.0540', volume_quote: '0.9690018910',
};

describe('candle', () => {
  it('reads keyed arrays', () => {
    const map = parseCandleMap({ ETHBTC: [sample] });
    expect(map['ETHBTC']?.[0]?.volume_quote).toBe('0.9690018910');
    expect(map['ETHBTC']?.[0]?.timestamp).toBe(Date.UTC(2021, 6, 7, 20));
  });

  it('names the failing field', () => {
    expect(() => parseCandleList([sample, { ...sample, close: '' }])).toThrow(/candles\[1\]\.close: must be a decimal number/);
  });

  it('knows the periods', () => {
    expect(CANDLE_PERIODS).toContain('1M');
    expect(isCandlePeriod('M15')).toBe(true);
    expect(isCandlePeriod('M2')).toBe(false);
  });

  it('round-trips', () => {
    const arb: fc.Arbitrary<Candle> = fc.record({
      timestamp: timeMs(), open: decimalText(), close: decimalText(), min: decimalText(), max: decimalText(),
      volume: decimalText(), volume_quote: decimalText(),
    });
    fc.assert(
      fc.property(arb, (c) => {
        expect(parseCandle(JSON.parse(JSON.stringify(candleToWire(c))))).toEqual(c);
      }),
    );
  });
});
