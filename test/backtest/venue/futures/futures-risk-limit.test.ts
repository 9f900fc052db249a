import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../../framework/model/decimal.js';
import { BTC_PERP_CONFIG, makeFuturesVenue, rejection, type FuturesFixture } from '../support/futures-fixture.js';

const SYMBOL = 'BTCUSDT_PERP';

/** BTC book: ask 60000.0 x 10, bid 59999.0 x 10 (ticks of 0.1, lots of 0.0001); account `r` holds 10 000 000 USDT. */
function venue(config = BTC_PERP_CONFIG): FuturesFixture {
  const f = makeFuturesVenue({ r: { futures: { USDT: '10000000' } } }, { configs: [config] });
  f.market(SYMBOL).setBook([[600000, 100_000]], [[599990, 100_000]]);
  return f;
}

const buy = (f: FuturesFixture, quantity: string, price: string, id?: string): unknown =>
  f.venue.placeOrder('r', { client_order_id: id, symbol: SYMBOL, side: 'buy', quantity, price });

describe('SimulatedVenue futures risk limit: limit_base / L^limit_power', () => {
  it('is not applied below unlimited_threshold', () => {
    const f = venue();
    f.venue.futures.setLeverage('r', SYMBOL, '4');
    // 10 x 59000 = 590 000, far above what 1 000 000 / 10 would allow.
    buy(f, '10', '59000');
    expect(f.venue.openOrders('r')).toHaveLength(1);
  });

  it('at leverage 10 allows open orders up to 100 000 of value, exactly at the limit included, refuses beyond with 20003', () => {
    const f = venue();
    f.venue.futures.setLeverage('r', SYMBOL, '10');
    buy(f, '1', '59000'); // 59 000
    buy(f, '0.6', '59000'); // 94 400
    const e = rejection(() => buy(f, '0.7', '59000')); // 135 700
    expect(e.code).toBe(20003);
    expect(e.exchangeMessage).toBe('Limit exceeded');
    expect(e.description).toContain('135700');
    expect(e.description).toContain('100000');
    buy(f, '0.1', '56000'); // 100 000 exactly
    expect(rejection(() => buy(f, '0.0001', '100')).code).toBe(20003);
    expect(f.venue.openOrders('r')).toHaveLength(3);
  });

  it('counts the position at the mark price and lets reduce-only orders through', () => {
    const f = venue();
    f.venue.futures.setLeverage('r', SYMBOL, '10');
    f.venue.placeOrder('r', { symbol: SYMBOL, side: 'buy', type: 'market', quantity: '1' });
    // Position 1 at mark (60000 + 59999) / 2 = 59999.5; 1 x 40000.5 reaches 100 000 exactly.
    buy(f, '1', '40000.5');
    expect(rejection(() => buy(f, '0.0001', '1')).code).toBe(20003);
    f.venue.placeOrder('r', { symbol: SYMBOL, side: 'sell', quantity: '1', price: '70000', reduce_only: true });
    expect(f.venue.openOrders('r')).toHaveLength(2);
  });

  it('values a replacement without the order it replaces', () => {
    const f = venue();
    f.venue.futures.setLeverage('r', SYMBOL, '10');
    buy(f, '1', '59000', 'a');
    buy(f, '0.6', '59000', 'b');
    expect(rejection(() => f.venue.replaceOrder('r', { client_order_id: 'b', new_client_order_id: 'b2', quantity: '0.7', price: '59000' })).code).toBe(20003);
    const next = f.venue.replaceOrder('r', { client_order_id: 'b', new_client_order_id: 'b3', quantity: '0.69', price: '59000' });
    expect(next.quantity.toFixed()).toBe('0.69');
  });

  it('uses the power: 1 000 000 / 10^2 = 10 000 at leverage 10', () => {
    const f = venue({ ...BTC_PERP_CONFIG, limit_power: new Decimal('2') });
    f.venue.futures.setLeverage('r', SYMBOL, '10');
    buy(f, '0.2', '50000'); // 10 000 exactly
    expect(rejection(() => buy(f, '0.0001', '50000')).code).toBe(20003);
    // At leverage 5 (the threshold itself, not below it) the limit is 1 000 000 / 25 = 40 000.
    f.venue.cancelAll('r');
    f.venue.futures.setLeverage('r', SYMBOL, '5');
    buy(f, '0.8', '50000');
    expect(rejection(() => buy(f, '0.0001', '50000')).code).toBe(20003);
  });

  it('does not apply to a symbol whose configuration has no risk limit', () => {
    const f = venue({ ...BTC_PERP_CONFIG, limit_base: undefined, limit_power: undefined });
    f.venue.futures.setLeverage('r', SYMBOL, '100');
    buy(f, '100', '59000');
    expect(f.venue.openOrders('r')).toHaveLength(1);
  });
});
