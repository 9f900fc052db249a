import { describe, expect, it } from 'vitest';
import { AccountState } from '../../framework/execution/account-state.js';
import type { OrderFill, TrackedOrderInfo } from '../../framework/execution/order-tracker.js';
import { dec } from '../../framework/model/decimal.js';
import type { Order } from '../../framework/model/resources/order.js';
import type { OrderReport } from '../../framework/model/stream/order-report.js';

const SYMBOL = 'BTCUSDT_PERP';
const currencies = () => ({ base: null, quote: 'USDT', fee: 'USDT' });

function filled(id: string, side: 'buy' | 'sell', quantity: string, price: string, tradeId: string): Order {
  return {
    id: `x${id}`, client_order_id: id, symbol: SYMBOL, side, status: 'filled', type: 'market', time_in_force: 'IOC',
    quantity: dec(quantity), quantity_cumulative: dec(quantity), post_only: false, created_at: 1, updated_at: 2,
    trades: [{ id: tradeId, quantity: dec(quantity), price: dec(price), fee: dec('0'), taker: true, timestamp: 2 }],
  };
}

function liquidation(quantity: string, price: string, fee: string, side: 'buy' | 'sell' = 'sell'): OrderReport {
  return {
    id: '900', client_order_id: 'liquidation-7', symbol: SYMBOL, side, status: 'filled', type: 'market', time_in_force: 'IOC',
    quantity: dec(quantity), quantity_cumulative: dec(quantity), post_only: false, reduce_only: true, created_at: 5, updated_at: 5,
    report_type: 'trade', trade_id: '901', trade_quantity: dec(quantity), trade_price: dec(price), trade_fee: dec(fee), trade_taker: true,
    trade_position_id: '7', liquidation: true,
  };
}

function open(account: AccountState, strategyId: string, id: string, side: 'buy' | 'sell', quantity: string, price: string): void {
  account.track({ clientOrderId: id, strategyId, symbol: SYMBOL, side, quantity: dec(quantity) });
  account.applyOrder(filled(id, side, quantity, price, `t-${id}`));
}

describe('AccountState: a liquidation', () => {
  it('closes the strategies\' positions it reduces, largest first, the fee on the first; booked and told once', () => {
    const booked: [TrackedOrderInfo, OrderFill][] = [];
    const account = new AccountState(currencies, (info, fill) => booked.push([info, fill]));
    open(account, 'small', 'a', 'buy', '0.4', '100');
    open(account, 'large', 'b', 'buy', '0.6', '110');
    open(account, 'short', 'c', 'sell', '0.1', '105');
    booked.length = 0;
    const report = liquidation('1', '90', '0.09');

    const info = account.trackLiquidation(report);
    const update = account.applyReport(report);
    expect(update.changed).toBe(true);
    expect([info.strategyId, info.liquidation]).toEqual(['large', true]);
    expect(booked.map(([i, f]) => [i.clientOrderId, f.quantity.toFixed(), f.price.toFixed(), f.fee.toFixed()])).toEqual([['liquidation-7', '1', '90', '0.09']]);
    // By hand: large 0.6 long at 110 closes at 90 (-12), small 0.4 long at 100 (-4); the short is untouched.
    const view = (s: string) => { const p = account.positions.position(s, SYMBOL)!; return [p.quantity.toFixed(), p.realizedPnl.toFixed()]; };
    expect([view('large'), view('small'), view('short')]).toEqual([['0', '-12'], ['0', '-4'], ['-0.1', '0']]);
    // Flows: large bought 66 and sold 54 less the fee; small bought 40 and sold 36.
    expect([account.positions.flow('large', 'USDT').toFixed(), account.positions.flow('small', 'USDT').toFixed()]).toEqual(['-12.09', '-4']);

    // The same report again (a reconnect's replay) books nothing.
    expect(account.applyReport(report).fills).toEqual([]);
    expect(view('large')).toEqual(['0', '-12']);
  });

  it('belongs to no strategy when none holds the position it closes', () => {
    const account = new AccountState(currencies);
    open(account, 'long', 'a', 'buy', '1', '100');
    const report = liquidation('1', '120', '0', 'buy');
    expect(account.trackLiquidation(report).strategyId).toBeUndefined();
    account.applyReport(report);
    expect(account.positions.position('long', SYMBOL)?.quantity.toFixed()).toBe('1');
  });
});
