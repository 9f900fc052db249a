import { describe, expect, it } from 'vitest';
import { balanceCheck } from '../../framework/risk/balance-check.js';
import { ordersOf } from '../../framework/risk/intent-orders.js';
import { marketBuyReserveCheck } from '../../framework/risk/market-buy-reserve-check.js';
import { tradesOnMargin } from '../../framework/risk/trades-on-margin.js';
import { config, d, futuresInstrument, place, spotInstrument, spotState } from './risk-fixtures.js';

/** The spot state with ETHUSDT tradable on margin, traded on a margin account at `leverage` (none: a spot account). */
function marginState(usdt: string, leverage?: string) {
  const state = spotState({ USDT: usdt });
  const eth = spotInstrument({ margin_trading: true, max_initial_leverage: '10' });
  state.instruments.set(eth.symbol, eth);
  if (leverage !== undefined) state.leverages.set(eth.symbol, d(leverage));
  return state;
}

describe('tradesOnMargin and the margin funds rule', () => {
  it('is true for a futures contract, and for a margin pair only when its isolated account is known (a margin account)', () => {
    const state = marginState('0', '2');
    expect(tradesOnMargin(futuresInstrument(), state)).toBe(true);
    expect(tradesOnMargin(state.instruments.get('ETHUSDT')!, state)).toBe(true);
    expect(tradesOnMargin(state.instruments.get('ETHUSDT')!, marginState('0'))).toBe(false);
    expect(tradesOnMargin(spotInstrument(), state)).toBe(false);
  });

  it('a margin limit buy needs notional / leverage + notional x max fee rate; exactly that passes', () => {
    // 2000 x 1 / 4 = 500, + 2000 x 0.0025 = 5.
    expect(balanceCheck(place({ side: 'buy', quantity: '1', price: '2000' }), marginState('505', '4'), config())).toBeUndefined();
    expect(balanceCheck(place({ side: 'buy', quantity: '1', price: '2000' }), marginState('504.99', '4'), config())?.reason)
      .toBe('ETHUSDT: needs 505 USDT, free balance 504.99 USDT');
    // A short needs the same margin in the quote currency, no base at all.
    expect(balanceCheck(place({ side: 'sell', quantity: '1', price: '2000' }), marginState('505', '4'), config())).toBeUndefined();
    // The same pair on a spot account: the spot rule (2005 USDT).
    expect(balanceCheck(place({ side: 'buy', quantity: '1', price: '2000' }), marginState('505'), config())?.reason).toMatch(/needs 2005 USDT/);
  });

  it('a margin market buy is judged by its margin at the ask, not by the spot market-buy reserve', () => {
    const state = marginState('1000', '4');
    const buy = place({ side: 'buy', type: 'market', quantity: '1' });
    expect(marketBuyReserveCheck(buy, state, config())).toBeUndefined();
    // 2000.10 / 4 = 500.025, + 2000.10 x 0.0025 = 5.00025.
    expect(balanceCheck(buy, marginState('505.02525', '4'), config())).toBeUndefined();
    expect(balanceCheck(buy, marginState('505.02524', '4'), config())?.check).toBe('balance');
  });

  it('closing a margin position is reduce-only; on spot it is a plain order', () => {
    const state = marginState('1000', '4');
    state.positionsBySymbol.set('ETHUSDT', d('-0.5'));
    const close = { kind: 'closePosition' as const, intentId: 'k', strategyId: 's', symbol: 'ETHUSDT' };
    expect(ordersOf(close, state).map((o) => [o.side, o.type, o.quantity.toFixed(), o.reduceOnly])).toEqual([['buy', 'market', '0.5', true]]);
    const spot = marginState('1000');
    spot.positionsBySymbol.set('ETHUSDT', d('0.5'));
    expect(ordersOf(close, spot).map((o) => [o.side, o.reduceOnly])).toEqual([['sell', undefined]]);
  });
});
