import { describe, expect, it } from 'vitest';
import { positionMargin } from '../../framework/execution/position-margin.js';
import { parseMarginAccount } from '../../framework/model/resources/margin-account.js';

const account = (priceLiquidation: string, priceMarginCall: string) => parseMarginAccount({
  symbol: 'BTCUSDT_PERP', type: 'isolated', leverage: '2', created_at: '2024-08-08T00:00:00.000Z', updated_at: '2024-08-08T00:00:01.000Z',
  currencies: [{ code: 'USDT', margin_balance: '100', reserved_orders: '0', reserved_positions: '50' }],
  positions: [{
    id: 1, symbol: 'BTCUSDT_PERP', quantity: '0.001', price_entry: '50000', price_margin_call: priceMarginCall, price_liquidation: priceLiquidation,
    pnl: '0', created_at: '2024-08-08T00:00:00.000Z', updated_at: '2024-08-08T00:00:01.000Z',
  }],
});

describe('positionMargin', () => {
  it('reads the threshold prices the exchange gives', () => {
    const margin = positionMargin(account('25250.5', '37500'));
    expect([margin.liquidationPrice?.toFixed(), margin.marginCallPrice?.toFixed()]).toEqual(['25250.5', '37500']);
  });

  it('reads a threshold price of 0 (no mark price reaches it: a covered long) as none', () => {
    const margin = positionMargin(account('0', '0.00'));
    expect([margin.liquidationPrice, margin.marginCallPrice]).toEqual([undefined, undefined]);
  });
});
