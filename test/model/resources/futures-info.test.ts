import { describe, expect, it } from 'vitest';
import {
  parseFundingHistoryMap, parseFundingRecord, parseFuturesInfo, parseFuturesInfoMap, parseOpenInterestCandle,
} from '../../../framework/model/resources/futures-info.js';

describe('futures info', () => {
  it('reads a perpetual contract', () => {
    const info = parseFuturesInfoMap({
      BTCUSDT_PERP: {
        contract_type: 'perpetual', mark_price: '42307.43', index_price: '42303.27', funding_rate: '0.0001',
        open_interest: '30.9826', next_funding_time: '2022-03-22T16:00:00.000Z', indicative_funding_rate: '0.0001',
        premium_index: '0', avg_premium_index: '0.000029587712038098', interest_rate: '0.0001', timestamp: '2022-03-22T13:49:59.000Z',
      },
    })['BTCUSDT_PERP'];
    expect(info?.funding_rate).toBe('0.0001');
    expect(info?.next_funding_time).toBe(Date.UTC(2022, 2, 22, 16));
    expect(info?.expiry).toBeUndefined();
  });

  it('names the failing field', () => {
    expect(() => parseFuturesInfo({ contract_type: 'forever', mark_price: '1', index_price: '1', open_interest: '1', timestamp: 1 }))
      .toThrow(/futures_info\.contract_type/);
  });
});

describe('funding history', () => {
  it('reads keyed arrays', () => {
    const rec = parseFundingHistoryMap({
      BTCUSDT_PERP: [{
        timestamp: '2022-03-22T08:00:00.000Z', funding_rate: '0.0001', avg_premium_index: '0.000031', interest_rate: '0.0001',
        next_funding_time: '2022-03-22T16:00:00.000Z',
      }],
    })['BTCUSDT_PERP']?.[0];
    expect(rec?.avg_premium_index).toBe('0.000031');
  });

  it('names the failing field', () => {
    expect(() => parseFundingRecord({ timestamp: 1, funding_rate: '1', avg_premium_index: '1', interest_rate: '1' }))
      .toThrow(/funding\.next_funding_time: is required/);
  });
});

describe('open interest candle', () => {
  it('keeps timestamp and every other field as exact decimal text', () => {
    const c = parseOpenInterestCandle({ timestamp: '2022-03-22T08:00:00.000Z', open: '30.98', close: '31.0', extra: 5 });
    expect(c.timestamp).toBe(Date.UTC(2022, 2, 22, 8));
    expect(c.values).toEqual({ open: '30.98', close: '31.0', extra: '5' });
  });

  it('names a non-decimal field', () => {
    expect(() => parseOpenInterestCandle({ timestamp: 1, open: 'n/a' })).toThrow(/open_interest\.open: must be a decimal number/);
  });
});
