import { describe, expect, it } from 'vitest';
import {
  parseMarginAccount, parseMarginAccountList, parsePosition, parsePositionList,
} from '../../../framework/model/resources/margin-account.js';

const position = {
  id: 485970, symbol: 'BTCUSDT_PERP', quantity: '-0.0100', price_entry: '42000.0', price_margin_call: '46200.0',
  price_liquidation: '47000.0', pnl: '-1.20', created_at: '2022-03-22T08:00:00.000Z', updated_at: '2022-03-22T08:00:01.000Z',
};
const account = {
  symbol: 'BTCUSDT_PERP', type: 'isolated', leverage: '10.00', created_at: '2022-03-22T08:00:00.000Z',
  updated_at: '2022-03-22T08:00:01.000Z',
  currencies: [{ code: 'USDT', margin_balance: '100.00', reserved_orders: '0', reserved_positions: '42.0' }],
  positions: [position],
};

describe('margin account', () => {
  it('reads an account with a short position, and null positions', () => {
    const [a, empty] = parseMarginAccountList([account, { ...account, positions: null }]);
    expect(a?.positions?.[0]?.quantity.isNegative()).toBe(true);
    expect(a?.currencies[0]?.reserved_positions.toFixed()).toBe('42');
    expect(empty?.positions).toBeNull();
    expect(parsePositionList([position])[0]?.id).toBe('485970');
  });

  it('names the failing field', () => {
    expect(() => parseMarginAccount({ ...account, currencies: [{ code: 'USDT', margin_balance: '1', reserved_orders: '0' }] }))
      .toThrow(/account\.currencies\[0\]\.reserved_positions: is required/);
    expect(() => parsePosition({ ...position, price_entry: [] })).toThrow(/position\.price_entry/);
  });
});
