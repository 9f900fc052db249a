import { describe, expect, it } from 'vitest';
import { syntheticFutures, syntheticMarketSource } from '../../../backtest/sandbox/synthetic-source.js';

describe('the sandbox\'s synthetic market', () => {
  it('has a perpetual and a dated contract expiring on the first Friday 08:00 UTC at least a week after the start', () => {
    // 2024-01-01 is a Monday: a week later is Monday the 8th, the Friday after it the 12th.
    const cases: [string, string, string][] = [
      ['2024-01-01T00:00:00Z', 'BTCUSDT_240112', '2024-01-12T08:00:00.000Z'],
      ['2024-01-05T08:00:00Z', 'BTCUSDT_240112', '2024-01-12T08:00:00.000Z'],
      ['2024-01-05T08:00:00.001Z', 'BTCUSDT_240119', '2024-01-19T08:00:00.000Z'],
    ];
    for (const [start, code, expiry] of cases) {
      const [perp, dated] = syntheticFutures(Date.parse(start));
      expect(perp).toMatchObject({ symbol: 'BTCUSDT_PERP', underlying: 'BTCUSDT' });
      expect([dated?.symbol, dated?.contractType, new Date(dated!.expiry!).toISOString()]).toEqual([code, 'cash_settled', expiry]);
    }
  });

  it('lists the contracts beside the spot pairs', () => {
    const source = syntheticMarketSource(42, Date.parse('2024-01-01T00:00:00Z'));
    expect(source.kind === 'frames' ? Object.keys(source.symbols) : []).toEqual(['BTCUSDT', 'ETHUSDT', 'BTCUSDT_PERP', 'BTCUSDT_240112']);
  });
});
