import { describe, expect, it } from 'vitest';
import { parsePositionHistoryList, parsePositionHistoryRecord } from '../../../framework/model/resources/position-history.js';

const record = {
  id: 4521, symbol: 'BTCUSDT_PERP', margin_mode: 'isolated', state: 'closed', quantity: '0', entry_value: '0',
  entry_price: '42000', avg_buy_price: '42000', avg_sell_price: '42100', margin_call_price: '0', liquidation_price: '0',
  bankruptcy_price: '0', margin: '0', required_margin: '0', orders_margin: '0', pnl: '1.0', leverage: '10', margin_call: false,
  create_timestamp: '1647936000123456789', update_timestamp: '1647936001987654321',
};

describe('position history', () => {
  it('keeps nanosecond timestamps exact', () => {
    const [r] = parsePositionHistoryList([record]);
    expect(r?.create_timestamp).toBe(1647936000123456789n);
    expect(r?.update_timestamp).toBe(1647936001987654321n);
    expect(r?.state).toBe('closed');
    expect(r?.pnl?.toFixed()).toBe('1');
  });

  it('names the failing field', () => {
    expect(() => parsePositionHistoryRecord({ ...record, state: 'open' })).toThrow(/position\.state/);
    expect(() => parsePositionHistoryRecord({ ...record, create_timestamp: '2022-03-22' })).toThrow(/position\.create_timestamp: must be a UNIX nanosecond integer/);
  });
});
