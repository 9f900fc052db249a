import { describe, expect, it } from 'vitest';
import { parseTradeHistoryList, parseTradeHistoryRecord } from '../../../framework/model/resources/trade-history.js';

const spot = {
  id: 9535486, order_id: 816088377, client_order_id: 'f8dbaab336d44d5ba3ff578098a68454', symbol: 'ETHBTC', side: 'sell',
  quantity: '0.061', price: '0.035', fee: '0.000002135', timestamp: '2017-05-17T12:32:57.848Z', taker: true,
};

describe('trade history', () => {
  it('reads spot (numeric ids) and futures (string ids, pnl) records', () => {
    const [s, f] = parseTradeHistoryList([
      spot,
      { ...spot, id: '1754', order_id: '1186', symbol: 'BTCUSDT_PERP', position_id: 1, pnl: '-0.1', liquidation: false },
    ]);
    expect(s?.id).toBe('9535486');
    expect(s?.fee.toFixed()).toBe('0.000002135');
    expect(f?.order_id).toBe('1186');
    expect(f?.pnl?.toFixed()).toBe('-0.1');
    expect(f?.liquidation).toBe(false);
  });

  it('names the failing field', () => {
    expect(() => parseTradeHistoryRecord({ ...spot, taker: undefined })).toThrow(/trade\.taker: is required/);
  });
});
