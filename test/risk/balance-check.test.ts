import { describe, expect, it } from 'vitest';
import type { Intent, OrderSpec } from '../../framework/model/intent.js';
import { balanceCheck } from '../../framework/risk/balance-check.js';
import { intentKey } from '../../framework/risk/reservation-key.js';
import { config, d, f, place, spotState } from './risk-fixtures.js';

describe('balanceCheck', () => {
  it('a limit buy needs price x quantity x (1 + max fee rate); exactly that passes', () => {
    // 2000 x 1 x 1.0025 = 2005 (max of take 0.0025 and make 0.001)
    expect(balanceCheck(place({ side: 'buy', quantity: '1', price: '2000' }), spotState({ USDT: '2005' }), config())).toBeUndefined();
    expect(balanceCheck(place({ side: 'buy', quantity: '1', price: '2000' }), spotState({ USDT: '2004.999999' }), config()))
      .toEqual({ check: 'balance', reason: 'ETHUSDT: needs 2005 USDT, free balance 2004.999999 USDT' });
  });

  it('a sell needs its base quantity', () => {
    expect(balanceCheck(place({ side: 'sell', quantity: '1.5', price: '2000' }), spotState({ ETH: '1.5' }), config())).toBeUndefined();
    expect(balanceCheck(place({ side: 'sell', quantity: '1.5001', price: '2000' }), spotState({ ETH: '1.5' }), config())?.reason).toMatch(/needs 1.5001 ETH/);
  });

  it('sees what intents in flight already hold', () => {
    const state = spotState({ USDT: '3000' });
    state.ledger.reserve(intentKey('other'), 'USDT', f('995'), d('1'));
    expect(balanceCheck(place({ side: 'buy', quantity: '1', price: '2000' }), state, config())).toBeUndefined();
    state.ledger.reserve(intentKey('more'), 'USDT', f('0.01'), d('1'));
    expect(balanceCheck(place({ side: 'buy', quantity: '1', price: '2000' }), state, config())?.check).toBe('balance');
  });

  it('sums the legs of an order list per currency', () => {
    const state = spotState({ USDT: '4010', ETH: '0' });
    const leg = (price: string): OrderSpec =>
      ({ symbol: 'ETHUSDT', side: 'buy', type: 'limit', quantity: d('1'), price: d(price) });
    const list = (a: string, b: string): Intent => ({ kind: 'orderList', intentId: 'l', strategyId: 's', contingencyType: 'allOrNone', orders: [leg(a), leg(b)] });
    expect(balanceCheck(list('2000', '2000'), state, config())).toBeUndefined();
    expect(balanceCheck(list('2000', '2000.01'), state, config())?.reason).toMatch(/needs 4010.010025 USDT/);
  });

  it('a replace needs only the increase over what its order holds', () => {
    const state = spotState({ USDT: '3007.5' });
    state.ledger.reserve(intentKey('placed'), 'USDT', f('2005'), d('1'));
    state.orders.set('c1', { clientOrderId: 'c1', symbol: 'ETHUSDT', side: 'buy', type: 'limit', quantity: d('1'), quantityCumulative: d('0'), price: d('2000'), reservationKey: intentKey('placed') });
    const replace = (quantity: string): Intent => ({ kind: 'replace', intentId: 'r', strategyId: 's', clientOrderId: 'c1', quantity: d(quantity) });
    // 1.5 x 2000 x 1.0025 = 3007.5, of which 2005 is held: 1002.5 more, exactly free.
    expect(balanceCheck(replace('1.5'), state, config())).toBeUndefined();
    expect(balanceCheck(replace('1.5001'), state, config())?.check).toBe('balance');
  });

  it('leaves spot market buys to the market-buy reserve check', () => {
    expect(balanceCheck(place({ side: 'buy', type: 'market', quantity: '1' }), spotState({ USDT: '0' }), config())).toBeUndefined();
  });
});
