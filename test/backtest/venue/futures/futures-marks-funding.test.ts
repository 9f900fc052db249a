import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../../framework/model/decimal.js';
import { T0, tradesFrame } from '../support/venue-fixture.js';
import { makeFuturesVenue } from '../support/futures-fixture.js';

const SYMBOL = 'ETHUSDT_PERP';
const HOUR = 3_600_000;

/** A recorded `GET /api/3/public/futures/info` body for ETHUSDT_PERP. */
function info(mark: string, extra: Record<string, string> = {}): unknown {
  return { [SYMBOL]: { contract_type: 'perpetual', mark_price: mark, index_price: mark, open_interest: '1', timestamp: new Date(T0).toISOString(), ...extra } };
}

describe('SimulatedVenue futures: mark price', () => {
  it('is the book mid, else the last trade, until a recorded mark arrives, which then wins', () => {
    const f = makeFuturesVenue();
    expect(f.venue.futures.markPrice(SYMBOL)).toBeUndefined();
    f.venue.onMarketFrame(tradesFrame(SYMBOL, [{ p: '2480.5', q: '1', s: 'buy' }]), T0 + 1);
    expect(f.venue.futures.markPrice(SYMBOL)?.toFixed()).toBe('2480.5');
    f.market(SYMBOL).setBook([[250001, 1000]], [[249900, 1000]]);
    expect(f.venue.futures.markPrice(SYMBOL)?.toFixed()).toBe('2499.505');
    f.venue.futures.applyFuturesInfo(info('2470.25'), T0 + 2);
    expect(f.venue.futures.markPrice(SYMBOL)?.toFixed()).toBe('2470.25');
  });
});

describe('SimulatedVenue futures: funding', () => {
  it('pays quantity x mark x rate at the 8-hour boundaries with the default rate: longs pay, shorts receive', () => {
    const f = makeFuturesVenue(
      { l: { futures: { USDT: '10000' } }, s: { futures: { USDT: '10000' } } },
      { defaultFundingRate: '0.0001' },
    );
    f.market(SYMBOL).setBook([[250000, 10_000]], [[249900, 10_000]]);
    f.venue.placeOrder('l', { symbol: SYMBOL, side: 'buy', type: 'market', quantity: '1' });
    f.venue.placeOrder('s', { symbol: SYMBOL, side: 'sell', type: 'market', quantity: '2' });
    const before = { l: f.venue.futures.account('l', SYMBOL).currencies[0]?.margin_balance, s: f.venue.futures.account('s', SYMBOL).currencies[0]?.margin_balance };
    // T0 is 12:00 UTC: nothing due at 15:59, the payment at 16:00 at mark 2499.5.
    f.venue.advanceTo(T0 + 4 * HOUR - 1);
    expect(f.venue.futures.clearing('l')).toEqual([]);
    f.venue.advanceTo(T0 + 4 * HOUR);
    const paid = new Decimal('1').times('2499.5').times('0.0001'); // 0.24995
    expect(f.venue.futures.account('l', SYMBOL).currencies[0]?.margin_balance.toFixed()).toBe(before.l?.minus(paid).toFixed());
    expect(f.venue.futures.account('s', SYMBOL).currencies[0]?.margin_balance.toFixed()).toBe(before.s?.plus(paid.times(2)).toFixed());
    expect(f.venue.futures.clearing('l')).toMatchObject([{ type: 'funding', symbol: SYMBOL, currency: 'USDT', timestamp: BigInt(T0 + 4 * HOUR) * 1_000_000n }]);
    expect(f.venue.futures.clearing('l')[0]?.amount.toFixed()).toBe('-0.24995');
    expect(f.venue.futures.clearing('s')[0]?.amount.toFixed()).toBe('0.4999');
    // Two more boundaries (00:00 and 08:00) in one advance.
    f.venue.advanceTo(T0 + 20 * HOUR);
    expect(f.venue.futures.clearing('l')).toHaveLength(3);
    // The outside market is the other side of every payment.
    expect(f.venue.outsideFlow('USDT').toFixed()).toBe(paid.times(6).minus(paid.times(3)).toFixed());
  });

  it('uses the recorded rate and next funding time, at the recorded mark', () => {
    const f = makeFuturesVenue({ l: { futures: { USDT: '10000' } } });
    f.market(SYMBOL).setBook([[250000, 10_000]], [[249900, 10_000]]);
    f.venue.placeOrder('l', { symbol: SYMBOL, side: 'buy', type: 'market', quantity: '2' });
    f.venue.futures.applyFuturesInfo(info('2510', { funding_rate: '-0.0003', next_funding_time: new Date(T0 + HOUR).toISOString() }), T0 + 10);
    f.venue.advanceTo(T0 + HOUR);
    // A negative rate: longs receive 2 x 2510 x 0.0003 = 1.506.
    expect(f.venue.futures.clearing('l').map((c) => [c.amount.toFixed(), c.rate?.toFixed()])).toEqual([['1.506', '-0.0003']]);
    // The next payment falls on the next 8-hour boundary after the recorded time (16:00).
    f.venue.advanceTo(T0 + 4 * HOUR);
    expect(f.venue.futures.clearing('l')).toHaveLength(2);
  });

  it('pays nothing when no rate is recorded and the default rate is 0', () => {
    const f = makeFuturesVenue({ l: { futures: { USDT: '10000' } } });
    f.market(SYMBOL).setBook([[250000, 10_000]], [[249900, 10_000]]);
    f.venue.placeOrder('l', { symbol: SYMBOL, side: 'buy', type: 'market', quantity: '1' });
    f.venue.advanceTo(T0 + 24 * HOUR);
    expect(f.venue.futures.clearing('l')).toEqual([]);
  });
});
