import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContingencyType } from '../../framework/model/resources/order.js';
import type { Intent, OrderSpec } from '../../framework/model/intent.js';
import { balanceCheck } from '../../framework/risk/balance-check.js';
import { marketBuyReserveCheck } from '../../framework/risk/market-buy-reserve-check.js';
import { fundedOrders, ordersOf } from '../../framework/risk/intent-orders.js';
import { RiskGate } from '../../framework/risk/risk-gate.js';
import { config, d, spotState } from './risk-fixtures.js';

/** A limit leg on ETHUSDT (book 2000.00 / 2000.10; max fee rate 0.0025, so a buy needs price x quantity x 1.0025). */
const leg = (side: 'buy' | 'sell', quantity: string, price: string, extra: Partial<OrderSpec> = {}): OrderSpec =>
  ({ symbol: 'ETHUSDT', side, type: 'limit', quantity: d(quantity), price: d(price), ...extra });
const list = (contingencyType: ContingencyType, orders: OrderSpec[]): Intent =>
  ({ kind: 'orderList', intentId: 'L', strategyId: 's', contingencyType, orders });

const BUY_1 = leg('buy', '1', '2000'); // 2005 USDT
const BUY_15 = leg('buy', '1.5', '1990'); // 2992.4625 USDT
const SELL_1 = leg('sell', '1', '2050'); // 1 ETH
const STOP_1 = leg('sell', '1', '1950', { type: 'stopLimit', stopPrice: d('1960') }); // 1 ETH

/** Passes or names the check that denied, with a gate running the balance check alone on a fresh state. */
function gate(intent: Intent, balances: Record<string, string>) {
  const state = spotState(balances);
  const verdict = new RiskGate(config({ checks: ['balance'] }), state.ledger, state.rateWindow).evaluate(intent, state);
  return { verdict, state, held: [...state.ledger.entries()].map((r) => [r.key.id, r.currency, r.remaining.toFixed()]) };
}

describe('fundedOrders', () => {
  const view = spotState();

  it('single orders and allOrNone lists fund every order, summed', () => {
    const place: Intent = { kind: 'place', intentId: 'p', strategyId: 's', ...BUY_1 };
    expect(fundedOrders(place, ordersOf(place, view))).toMatchObject({ combine: 'sum', orders: [{ key: { id: 'p' } }] });
    const all = list('allOrNone', [BUY_1, BUY_15]);
    expect(fundedOrders(all, ordersOf(all, view))).toMatchObject({ combine: 'sum', orders: [{ key: { id: 'L#0' } }, { key: { id: 'L#1' } }] });
  });

  it('oneCancelOther funds every leg at the largest per currency; oneTriggerOneCancelOther its primary only', () => {
    const oco = list('oneCancelOther', [SELL_1, STOP_1]);
    expect(fundedOrders(oco, ordersOf(oco, view))).toMatchObject({ combine: 'max', orders: [{ key: { id: 'L#0' } }, { key: { id: 'L#1' } }] });
    const otoco = list('oneTriggerOneCancelOther', [BUY_1, SELL_1, STOP_1]);
    const funded = fundedOrders(otoco, ordersOf(otoco, view));
    expect(funded.combine).toBe('sum');
    expect(funded.orders.map((o) => o.key.id)).toEqual(['L#0']);
  });
});

describe('balance check and gate reservations of order lists', () => {
  it('allOrNone: the legs add up, exactly the sum passes, and each leg is reserved', () => {
    const intent = list('allOrNone', [BUY_1, BUY_15]); // 2005 + 2992.4625
    expect(balanceCheck(intent, spotState({ USDT: '4997.4625' }), config())).toBeUndefined();
    expect(balanceCheck(intent, spotState({ USDT: '4997.4624' }), config())?.reason).toMatch(/needs 4997.4625 USDT/);
    expect(gate(intent, { USDT: '4997.4625' }).held).toEqual([['L#0', 'USDT', '2005'], ['L#1', 'USDT', '2992.4625']]);
    const denied = gate(intent, { USDT: '4997.4624' });
    expect(denied.verdict).toMatchObject({ kind: 'denied', check: 'balance' });
    expect(denied.held).toEqual([]);
  });

  it('oneCancelOther: one leg executes, so the largest need per currency is checked and reserved once', () => {
    const buys = list('oneCancelOther', [BUY_1, BUY_15]);
    expect(balanceCheck(buys, spotState({ USDT: '2992.4625' }), config())).toBeUndefined();
    expect(balanceCheck(buys, spotState({ USDT: '2992.4624' }), config())?.reason).toMatch(/needs 2992.4625 USDT/);
    expect(gate(buys, { USDT: '2992.4625' }).held).toEqual([['L#oco', 'USDT', '2992.4625']]);
    const sells = list('oneCancelOther', [SELL_1, STOP_1]);
    expect(balanceCheck(sells, spotState({ ETH: '1' }), config())).toBeUndefined();
    expect(gate(sells, { ETH: '1' }).held).toEqual([['L#oco', 'ETH', '1']]);
    expect(gate(sells, { ETH: '0.9999' }).verdict).toMatchObject({ kind: 'denied', check: 'balance' });
  });

  it('oneCancelOther across currencies: the largest of each currency', () => {
    const mixed = list('oneCancelOther', [SELL_1, BUY_1]);
    expect(balanceCheck(mixed, spotState({ USDT: '2005', ETH: '1' }), config())).toBeUndefined();
    expect(balanceCheck(mixed, spotState({ USDT: '2005', ETH: '0.5' }), config())?.reason).toMatch(/needs 1 ETH/);
    expect(gate(mixed, { USDT: '2005', ETH: '1' }).held.sort()).toEqual([['L#oco', 'USDT', '2005'], ['L#oco-ETH', 'ETH', '1']]);
  });

  it('oneTriggerOneCancelOther: only the primary is checked and reserved (the secondaries sell what it buys)', () => {
    const intent = list('oneTriggerOneCancelOther', [BUY_1, SELL_1, STOP_1]);
    expect(balanceCheck(intent, spotState({ USDT: '2005', ETH: '0' }), config())).toBeUndefined();
    expect(balanceCheck(intent, spotState({ USDT: '2004.99', ETH: '100' }), config())?.reason).toMatch(/needs 2005 USDT/);
    expect(gate(intent, { USDT: '2005', ETH: '0' }).held).toEqual([['L#0', 'USDT', '2005']]);
  });

  it('the gate never reserves more than the check allowed, and reserves nothing when it denies', () => {
    const types: ContingencyType[] = ['allOrNone', 'oneCancelOther', 'oneTriggerOneCancelOther'];
    const spec = fc.record({
      side: fc.constantFrom('buy' as const, 'sell' as const),
      quantity: fc.integer({ min: 1, max: 300 }),
      price: fc.integer({ min: 190_000, max: 210_000 }),
    }).map(({ side, quantity, price }) => leg(side, (quantity / 100).toFixed(2), (price / 100).toFixed(2)));
    fc.assert(fc.property(
      fc.constantFrom(...types), fc.array(spec, { minLength: 2, maxLength: 3 }), fc.integer({ min: 0, max: 800_000 }), fc.integer({ min: 0, max: 400 }),
      (type, orders, usdt, eth) => {
        const intent = list(type, orders);
        const balances = { USDT: (usdt / 100).toFixed(2), ETH: (eth / 100).toFixed(2) };
        const passes = balanceCheck(intent, spotState(balances), config()) === undefined;
        const { verdict, state } = gate(intent, balances);
        expect(verdict.kind).toBe(passes ? 'passed' : 'denied');
        for (const currency of ['USDT', 'ETH']) {
          expect(state.ledger.free(currency).isNegative()).toBe(false);
          if (!passes) expect(state.ledger.reserved(currency).toFixed()).toBe('0');
        }
      },
    ), { numRuns: 300 });
  });
});

describe('market-buy reserve check of order lists', () => {
  // A stop-market buy at 2100 x 1: reserve 2100 x 1.1 x (1 + 0.0025) = 2315.775 USDT, strictly below the free balance.
  const stopBuy = (stop: string): OrderSpec => ({ symbol: 'ETHUSDT', side: 'buy', type: 'stopMarket', quantity: d('1'), stopPrice: d(stop) });

  it('a single stop-market buy needs a free balance above its reserve', () => {
    const intent: Intent = { kind: 'place', intentId: 'p', strategyId: 's', ...stopBuy('2100') };
    expect(marketBuyReserveCheck(intent, spotState({ USDT: '2315.776' }), config())).toBeUndefined();
    expect(marketBuyReserveCheck(intent, spotState({ USDT: '2315.775' }), config())?.check).toBe('market-buy-reserve');
  });

  // Bug: marketBuyReserveCheck walks ordersOf(intent) instead of fundedOrders(intent, ...): it
  // counts the inactive secondaries of a oneTriggerOneCancelOther list (which hold nothing until
  // the primary fills) and sums oneCancelOther legs instead of taking the largest, so the gate
  // denies lists that the balance check and the gate's own reservations accept.
  it('follows the list funding rules: OTOCO secondaries are not counted', () => {
    // Short entry: sell 1 ETH at 2050, then buy it back by take-profit or stop.
    const otoco = list('oneTriggerOneCancelOther', [SELL_1, leg('buy', '1', '1950'), stopBuy('2100')]);
    expect(balanceCheck(otoco, spotState({ USDT: '0', ETH: '1' }), config())).toBeUndefined();
    expect(marketBuyReserveCheck(otoco, spotState({ USDT: '0', ETH: '1' }), config())).toBeUndefined();
  });

  it('follows the list funding rules: oneCancelOther legs count at the largest, not summed', () => {
    const oco = list('oneCancelOther', [stopBuy('2100'), stopBuy('2090')]);
    expect(marketBuyReserveCheck(oco, spotState({ USDT: '2400' }), config())).toBeUndefined();
  });
});
