import { describe, expect, it } from 'vitest';
import { FINISHED_KEPT, OrderRegistry } from '../../framework/execution/order-registry.js';
import type { OrderTracker } from '../../framework/execution/order-tracker.js';
import { dec } from '../../framework/model/decimal.js';
import type { Order } from '../../framework/model/resources/order.js';

function order(id: string, status: Order['status'], cumulative = '0'): Order {
  return {
    id: `x${id}`, client_order_id: id, symbol: 'BTCUSDT', side: 'buy', status, type: 'limit', time_in_force: 'GTC',
    quantity: dec('1'), quantity_cumulative: dec(cumulative), price: dec('100'), post_only: false, created_at: 1, updated_at: 2,
  };
}

describe('OrderRegistry memory', () => {
  it('tells each finished order once and forgets the oldest finished beyond FINISHED_KEPT, never an open one', () => {
    const finished: string[] = [];
    const registry = new OrderRegistry(undefined, undefined, (t: OrderTracker) => finished.push(t.clientOrderId));
    registry.track({ clientOrderId: 'open', symbol: 'BTCUSDT', side: 'buy', quantity: dec('1') });
    registry.applyOrder(order('open', 'new'));
    const total = FINISHED_KEPT + 50;
    for (let i = 0; i < total; i++) {
      const id = `o${i}`;
      registry.track({ clientOrderId: id, symbol: 'BTCUSDT', side: 'buy', quantity: dec('1') });
      registry.applyOrder(order(id, 'new'));
      registry.applyOrder(order(id, 'canceled'));
      registry.applyOrder(order(id, 'canceled'));
    }
    expect(finished).toHaveLength(total);
    expect(new Set(finished).size).toBe(total);
    expect([...registry.all()]).toHaveLength(FINISHED_KEPT + 1);
    expect(registry.get('o0')).toBeUndefined();
    expect(registry.get(`o${total - 1}`)?.status).toBe('canceled');
    expect(registry.get('open')?.status).toBe('new');
  });
});
