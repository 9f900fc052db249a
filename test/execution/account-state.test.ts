import { describe, expect, it } from 'vitest';
import { FINISHED_KEPT, AccountState } from '../../framework/execution/account-state.js';
import type { OrderTracker } from '../../framework/execution/order-tracker.js';
import { dec } from '../../framework/model/decimal.js';
import type { Order } from '../../framework/model/resources/order.js';

function order(id: string, status: Order['status'], cumulative = '0'): Order {
  return {
    id: `x${id}`, client_order_id: id, symbol: 'BTCUSDT', side: 'buy', status, type: 'limit', time_in_force: 'GTC',
    quantity: dec('1'), quantity_cumulative: dec(cumulative), price: dec('100'), post_only: false, created_at: 1, updated_at: 2,
  };
}

describe('AccountState memory', () => {
  it('tells each finished order once and forgets the oldest finished beyond FINISHED_KEPT, never an open one', () => {
    const finished: string[] = [];
    const account = new AccountState(undefined, undefined, (t: OrderTracker) => finished.push(t.clientOrderId));
    account.track({ clientOrderId: 'open', symbol: 'BTCUSDT', side: 'buy', quantity: dec('1') });
    account.applyOrder(order('open', 'new'));
    const total = FINISHED_KEPT + 50;
    for (let i = 0; i < total; i++) {
      const id = `o${i}`;
      account.track({ clientOrderId: id, symbol: 'BTCUSDT', side: 'buy', quantity: dec('1') });
      account.applyOrder(order(id, 'new'));
      account.applyOrder(order(id, 'canceled'));
      account.applyOrder(order(id, 'canceled'));
    }
    expect(finished).toHaveLength(total);
    expect(new Set(finished).size).toBe(total);
    expect([...account.all()]).toHaveLength(FINISHED_KEPT + 1);
    expect(account.get('o0')).toBeUndefined();
    expect(account.get(`o${total - 1}`)?.status).toBe('canceled');
    expect(account.get('open')?.status).toBe('new');
  });
});
