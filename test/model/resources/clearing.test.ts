import { describe, expect, it } from 'vitest';
import { parseClearingList, parseClearingRecord } from '../../../framework/model/resources/clearing.js';

describe('clearing', () => {
  it('reads funding and interest records, rate null or absent', () => {
    const [funding, interest] = parseClearingList([
      {
        timestamp: '1647936000000000001', position_id: 4521, position_quantity: '0.01', position_entry_value: '420',
        type: 'funding', symbol: 'BTCUSDT_PERP', currency: 'USDT', amount: '-0.042', rate: '0.0001',
      },
      { timestamp: '1647936000000000002', type: 'interest', currency: 'USDT', amount: '-0.01', rate: null, trade_id: 77 },
    ]);
    expect(funding?.timestamp).toBe(1647936000000000001n);
    expect(funding?.rate?.toFixed()).toBe('0.0001');
    expect(interest?.rate).toBeNull();
    expect(interest?.trade_id).toBe('77');
  });

  it('names the failing field', () => {
    expect(() => parseClearingRecord({ timestamp: '1', type: 'funding', currency: 'USDT' })).toThrow(/clearing\.amount: is required/);
  });
});
