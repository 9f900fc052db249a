import { describe, expect, it } from 'vitest';
import { marketBuyReserveCheck } from '../../framework/risk/market-buy-reserve-check.js';
import { marketBuyReserve } from '../../framework/risk/order-reservation.js';
import { config, d, place, spotInstrument, spotState } from './risk-fixtures.js';

describe('marketBuyReserveCheck', () => {
  // Asks 2000.10 x 5, 2001.00 x 10; max(take 0.0025, make 0.001) = 0.0025.
  it('document 001 formula: p x q x 1.1 + p x q x 1.1 x max fee, exact', () => {
    expect(marketBuyReserve(d('2000.10'), spotInstrument(), config()).toFixed()).toBe('2205.610275');
  });

  it('requires a free balance strictly greater than the reserve', () => {
    const buy = place({ side: 'buy', type: 'market', quantity: '1' });
    expect(marketBuyReserveCheck(buy, spotState({ USDT: '2205.610276' }), config())).toBeUndefined();
    expect(marketBuyReserveCheck(buy, spotState({ USDT: '2205.610275' }), config())).toEqual({
      check: 'market-buy-reserve',
      reason: 'ETHUSDT: market buy reserve 2205.610275 USDT (10 % slippage and fees) needs a free balance above it, free 2205.610275 USDT',
    });
  });

  it('prices a deeper buy by walking the asks, and the part beyond the book at the worst level', () => {
    // 5 x 2000.10 + 1 x 2001.00 = 12001.5; x 1.1 = 13201.65; x 1.0025 = 13234.654125
    expect(marketBuyReserveCheck(place({ side: 'buy', type: 'market', quantity: '6' }), spotState({ USDT: '13234.654125' }), config())?.reason)
      .toMatch(/reserve 13234.654125 USDT/);
    // 10000.5 + 20010 + 1 x 2001.00 = 32011.5; x 1.1 x 1.0025 = 35300.681625
    expect(marketBuyReserveCheck(place({ side: 'buy', type: 'market', quantity: '16' }), spotState({ USDT: '1' }), config())?.reason)
      .toMatch(/reserve 35300.681625 USDT/);
  });

  it('uses the stop price for stop-market buys, ignores sells and limit buys, denies an empty ask side', () => {
    const stop = place({ side: 'buy', type: 'stopMarket', quantity: '1', stopPrice: d('2100') });
    // 2100 x 1.1 = 2310; + 5.775 = 2315.775
    expect(marketBuyReserveCheck(stop, spotState({ USDT: '2315.775' }), config())?.reason).toMatch(/reserve 2315.775 USDT/);
    expect(marketBuyReserveCheck(place({ side: 'sell', type: 'market', quantity: '1' }), spotState({ USDT: '0' }), config())).toBeUndefined();
    expect(marketBuyReserveCheck(place({ side: 'buy', quantity: '1', price: '2000' }), spotState({ USDT: '0' }), config())).toBeUndefined();
    const state = spotState();
    state.books.delete('ETHUSDT');
    expect(marketBuyReserveCheck(place({ side: 'buy', type: 'market', quantity: '1' }), state, config())?.reason).toMatch(/no ask/);
  });

  it('without a book (candles only, a book re-syncing) prices the buy at the last traded price', () => {
    const state = spotState({ USDT: '1' });
    state.books.delete('ETHUSDT');
    state.lastPrices.set('ETHUSDT', '2000.10');
    // Same figures as the best ask of 2000.10 would give.
    expect(marketBuyReserveCheck(place({ side: 'buy', type: 'market', quantity: '1' }), state, config())?.reason).toMatch(/reserve 2205.610275 USDT/);
  });

  it('honours a configured slippage allowance', () => {
    expect(marketBuyReserve(d('1000'), spotInstrument(), config({ marketBuySlippage: '0.2' })).toFixed()).toBe('1203');
  });
});
