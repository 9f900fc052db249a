import { describe, expect, it } from 'vitest';
import { T0, tradesFrame } from '../support/venue-fixture.js';
import { makeFuturesVenue, rejection } from '../support/futures-fixture.js';

const SYMBOL = 'ETHUSDT_Q';
const EXPIRY = T0 + 3_600_000;

function info(extra: Record<string, string>): unknown {
  return { [SYMBOL]: { contract_type: 'cash_settled', mark_price: '2520', index_price: '2520', open_interest: '1', timestamp: new Date(T0).toISOString(), ...extra } };
}

describe('SimulatedVenue futures: cash-settled expiry', () => {
  it('cancels orders and settles positions at the recorded settlement price, then takes no orders', () => {
    const f = makeFuturesVenue({ l: { futures: { USDT: '10000' } }, s: { futures: { USDT: '10000' } } });
    f.market(SYMBOL).setBook([[250000, 10_000]], [[249900, 10_000]]);
    f.venue.placeOrder('l', { symbol: SYMBOL, side: 'buy', type: 'market', quantity: '1' });
    f.venue.placeOrder('s', { symbol: SYMBOL, side: 'sell', type: 'market', quantity: '0.5' });
    f.venue.placeOrder('l', { client_order_id: 'rest', symbol: SYMBOL, side: 'buy', quantity: '0.1', price: '2400' });
    f.venue.futures.applyFuturesInfo(info({ indicative_settlement_price: '2550.5' }), EXPIRY - 1000);
    f.venue.advanceTo(EXPIRY - 1);
    expect(f.venue.futures.accounts('l')).toHaveLength(1);
    f.venue.advanceTo(EXPIRY);
    expect(f.venue.futures.accounts('l')).toEqual([]);
    expect(f.venue.futures.accounts('s')).toEqual([]);
    expect(f.reports('l')).toContain('rest:canceled:canceled');
    // Long 1 from 2500: +50.5; short 0.5 from 2499: -25.75. Fees 1.25 and 0.62475 paid earlier.
    expect(f.balance('l').available).toBe('10049.25');
    expect(f.balance('s').available).toBe('9973.62525');
    expect(f.venue.futures.positionHistory('l')[0]).toMatchObject({ state: 'closed' });
    expect(f.venue.tradeHistory('s')[0]?.price.toFixed()).toBe('2550.5');
    expect(rejection(() => f.venue.placeOrder('l', { symbol: SYMBOL, side: 'buy', quantity: '0.1', price: '2400' })).code).toBe(20044);
  });

  it('settles at the mark when no settlement price was recorded, and waits for a price when there is none', () => {
    const f = makeFuturesVenue({ l: { futures: { USDT: '10000' } } });
    f.market(SYMBOL).setBook([[250000, 10_000]], [[249900, 10_000]]);
    f.venue.placeOrder('l', { symbol: SYMBOL, side: 'buy', type: 'market', quantity: '1' });
    f.market(SYMBOL).setBook([], []);
    f.venue.advanceTo(EXPIRY + 1);
    expect(f.venue.futures.accounts('l')).toHaveLength(1);
    f.venue.onMarketFrame(tradesFrame(SYMBOL, [{ p: '2490', q: '1', s: 'sell' }]), EXPIRY + 2);
    f.venue.advanceTo(EXPIRY + 3);
    expect(f.venue.futures.accounts('l')).toEqual([]);
    // Settled at the last trade 2490: -10, after the 1.25 fee.
    expect(f.balance('l').available).toBe('9988.75');
  });
});
