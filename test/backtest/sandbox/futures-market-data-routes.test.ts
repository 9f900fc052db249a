import { describe, expect, it } from 'vitest';
import { openInterestCandles } from '../../../backtest/sandbox/futures-market-data-routes.js';
import { recordedFuturesInfo } from '../../../backtest/sandbox/recorded-futures-info.js';

const H = 3_600_000;

describe('openInterestCandles', () => {
  it('opens each period at the level it started with and leaves periods without readings out', () => {
    const samples = [
      { t: 10 * H + 5, value: '100' }, { t: 10 * H + 900_000, value: '80.5' }, { t: 10 * H + 1_800_000, value: '120' },
      { t: 13 * H, value: '90' },
    ];
    expect(openInterestCandles(samples, 'H1')).toEqual([
      { t: 10 * H, open: '100', close: '120', min: '80.5', max: '120' },
      { t: 13 * H, open: '120', close: '90', min: '90', max: '120' },
    ]);
  });

  it('compares readings as decimals, not as text', () => {
    expect(openInterestCandles([{ t: 0, value: '9' }, { t: 1, value: '10' }], 'M1')).toEqual([{ t: 0, open: '9', close: '10', min: '9', max: '10' }]);
  });

  it('gives no candle without readings', () => {
    expect(openInterestCandles([], 'M30')).toEqual([]);
  });
});

describe('recordedFuturesInfo', () => {
  const msg = (status: number, path = '/api/3/public/futures/info?symbols=X') => ({
    method: 'GET', path, status,
    body: { X: { mark_price: '1', next_funding_time: '2024-01-01T08:00:00.000Z', timestamp: 1_704_067_200_000, expiry: '2024-03-29T08:00:00.000Z' } },
  });

  it('takes successful futures info answers only', () => {
    expect(recordedFuturesInfo(msg(500), 0)).toBeUndefined();
    expect(recordedFuturesInfo(msg(200, '/api/3/public/ticker'), 0)).toBeUndefined();
    expect(recordedFuturesInfo(null, 0)).toBeUndefined();
    expect(recordedFuturesInfo(msg(200), 0)).toEqual(msg(200).body);
  });

  it('moves next_funding_time and timestamp (text or number) by the shift, nothing else', () => {
    expect(recordedFuturesInfo(msg(200, '/api/3/public/futures/info/X'), 60_000)).toEqual({
      X: { mark_price: '1', next_funding_time: '2024-01-01T08:01:00.000Z', timestamp: 1_704_067_260_000, expiry: '2024-03-29T08:00:00.000Z' },
    });
  });
});
