import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../../framework/model/decimal.js';
import { T0 } from '../support/venue-fixture.js';
import { makeFuturesVenue, rejection, type FuturesFixture } from '../support/futures-fixture.js';

const SYMBOL = 'ETHUSDT_PERP';

function info(mark: string): unknown {
  return { [SYMBOL]: { contract_type: 'perpetual', mark_price: mark, index_price: mark, open_interest: '1', timestamp: new Date(T0).toISOString() } };
}

/** Account g (100 USDT) long 0.7 at 2500 with leverage 20: cash 100 - 0.875 fee = 99.125, margin 87.5. */
function longAtTwenty(): FuturesFixture {
  const f = makeFuturesVenue();
  f.market(SYMBOL).setBook([[250000, 10_000]], [[249900, 10_000]]);
  f.venue.futures.setLeverage('g', SYMBOL, '20');
  f.venue.placeOrder('g', { symbol: SYMBOL, side: 'buy', type: 'market', quantity: '0.7' });
  return f;
}

describe('SimulatedVenue futures: liquidation', () => {
  it('keeps the position while the margin balance covers maintenance (mark value / (L x 2))', () => {
    const f = longAtTwenty();
    // At 2420: margin balance 99.125 + 0.7 x (2420 - 2500) = 43.125 >= 0.7 x 2420 / 40 = 42.35.
    f.venue.futures.applyFuturesInfo(info('2420'), T0 + 1);
    expect(f.venue.futures.liquidations()).toEqual([]);
    expect(f.venue.futures.account('g', SYMBOL).currencies[0]?.margin_balance.toFixed()).toBe('43.125');
  });

  it('closes the position at the mark below maintenance and cancels the account\'s orders', () => {
    const f = longAtTwenty();
    f.venue.placeOrder('g', { client_order_id: 'o', symbol: SYMBOL, side: 'buy', quantity: '0.01', price: '2400' });
    // At 2418: margin balance 99.125 - 57.4 = 41.725 < 0.7 x 2418 / 40 = 42.315.
    f.venue.futures.applyFuturesInfo(info('2418'), T0 + 1);
    const [record] = f.venue.futures.liquidations();
    expect(record).toMatchObject({ account: 'g', symbol: SYMBOL, time: T0 + 1 });
    expect([record?.quantity.toFixed(), record?.price.toFixed(), record?.realized.toFixed(), record?.fee.toFixed(), record?.deficit.toFixed()])
      .toEqual(['0.7', '2418', '-57.4', '0', '0']);
    expect(f.venue.futures.accounts('g')).toEqual([]);
    expect(f.venue.openOrders('g')).toEqual([]);
    expect(f.reports('g')).toContain('o:canceled:canceled');
    expect(f.balance('g')).toEqual({ available: '41.725', reserved: '0', reserved_margin: '0' });
    expect(f.venue.tradeHistory('g')[0]).toMatchObject({ liquidation: true, side: 'sell', symbol: SYMBOL });
    const [history] = f.venue.futures.positionHistory('g');
    expect([history?.state, history?.quantity.toFixed(), history?.pnl?.toFixed(), history?.leverage?.toFixed()]).toEqual(['liquidated', '0', '-57.4', '20']);
  });

  it('covers a gap below bankruptcy from the insurance fund and reports the deficit', () => {
    const f = longAtTwenty();
    // At 2300 the loss is 0.7 x 200 = 140 > 99.125: the fund pays 40.875.
    f.venue.futures.applyFuturesInfo(info('2300'), T0 + 1);
    expect(f.venue.futures.liquidations()[0]?.deficit.toFixed()).toBe('40.875');
    expect(f.venue.futures.insurancePaid('USDT').toFixed()).toBe('40.875');
    const event = f.events.find((e) => e.kind === 'liquidation');
    expect(event?.kind === 'liquidation' ? [event.account, event.liquidation.deficit.toFixed(), event.cause.kind] : []).toEqual(['g', '40.875', 'market']);
    expect(f.balance('g')).toEqual({ available: '0', reserved: '0', reserved_margin: '0' });
  });

  it('charges force_close_fee x notional when the configuration has one', () => {
    const f = makeFuturesVenue();
    f.market('BTCUSDT_PERP').setBook([[600000, 10_000]], [[599990, 10_000]]);
    f.venue.futures.setLeverage('g', 'BTCUSDT_PERP', '50');
    // 0.08 BTC at 60000: margin 96, fee 1.92 (taker 0.04%): cash 98.08.
    f.venue.placeOrder('g', { symbol: 'BTCUSDT_PERP', side: 'buy', type: 'market', quantity: '0.08' });
    expect(rejection(() => f.venue.placeOrder('g', { symbol: 'BTCUSDT_PERP', side: 'buy', type: 'market', quantity: '0.08' })).code).toBe(20001);
    f.venue.futures.applyFuturesInfo({ BTCUSDT_PERP: { contract_type: 'perpetual', mark_price: '59000', index_price: '59000', open_interest: '1', timestamp: new Date(T0).toISOString() } }, T0 + 1);
    // Realized 0.08 x -1000 = -80; force close fee 0.001 x 59000 x 0.08 = 4.72; cash 98.08 - 84.72 = 13.36.
    expect(f.venue.futures.liquidations()[0]?.fee.toFixed()).toBe('4.72');
    expect(f.balance('g').available).toBe('13.36');
  });

  it('shows margin-call and liquidation prices of a lone position, rounded to the tick away from safety', () => {
    const f = longAtTwenty();
    const long = f.venue.futures.account('g', SYMBOL).positions?.[0];
    // Long: (E - C) / (q (1 - 1/K)); K = 20 x 2 for liquidation, 20 x 1.5 for the margin call.
    // (1750 - 99.125) x 40 / (0.7 x 39) = 2418.864..., up to 2418.87; x 30 / (0.7 x 29) = 2439.716..., up to 2439.72.
    expect([long?.price_liquidation?.toFixed(), long?.price_margin_call?.toFixed()]).toEqual(['2418.87', '2439.72']);
    const g = makeFuturesVenue();
    g.market(SYMBOL).setBook([[250000, 10_000]], [[249900, 10_000]]);
    g.venue.futures.setLeverage('g', SYMBOL, '20');
    g.venue.placeOrder('g', { symbol: SYMBOL, side: 'sell', type: 'market', quantity: '0.7' });
    // Short at 2499: C = 100 - 0.87465 = 99.12535, E = 1749.3; (C + E) x 40 / (0.7 x 41) = 2576.202..., down to 2576.20.
    expect(g.venue.futures.account('g', SYMBOL).positions?.[0]?.price_liquidation?.toFixed()).toBe('2576.2');
  });

  it('shows 0 for a threshold no positive mark reaches: a long its cash covers', () => {
    const f = makeFuturesVenue({ g: { futures: { USDT: '1000' } } });
    f.market(SYMBOL).setBook([[250000, 10_000]], [[249900, 10_000]]);
    f.venue.placeOrder('g', { symbol: SYMBOL, side: 'buy', type: 'market', quantity: '0.1' });
    const long = f.venue.futures.account('g', SYMBOL).positions?.[0];
    expect([long?.price_margin_call?.toFixed(), long?.price_liquidation?.toFixed()]).toEqual(['0', '0']);
  });

  it('prices a position sharing its pocket with the other held at its mark: liquidated a tick beyond, not a tick before', () => {
    const both = (ethMark: string): FuturesFixture => {
      const f = makeFuturesVenue({ g: { futures: { USDT: '1000' } } });
      f.market(SYMBOL).setBook([[250000, 10_000]], [[249900, 10_000]]);
      f.market('BTCUSDT_PERP').setBook([[600000, 10_000]], [[599990, 10_000]]);
      f.venue.futures.setLeverage('g', SYMBOL, '20');
      f.venue.futures.setLeverage('g', 'BTCUSDT_PERP', '5');
      f.venue.placeOrder('g', { symbol: SYMBOL, side: 'buy', type: 'market', quantity: '0.7' });
      f.venue.placeOrder('g', { symbol: 'BTCUSDT_PERP', side: 'buy', type: 'market', quantity: '0.01' });
      const at = (eth: string): unknown => ({ ...info(eth) as object, BTCUSDT_PERP: { contract_type: 'perpetual', mark_price: '60000', index_price: '60000', open_interest: '1', timestamp: new Date(T0).toISOString() } });
      f.venue.futures.applyFuturesInfo(at(ethMark), T0 + 1);
      return f;
    };
    const price = both('2500').venue.futures.account('g', SYMBOL).positions?.[0]?.price_liquidation;
    // Cash 1000 - 0.875 - 0.24 (fees) = 998.885, less BTC's maintenance 600 / (5 x 2) = 60 at its mark:
    // (1750 - 938.885) x 40 / (0.7 x 39) = 1188.446..., up to 1188.45 (alone it would be 1100.53).
    expect(price?.toFixed()).toBe('1188.45');
    expect(both('1188.46').venue.futures.liquidations()).toEqual([]);
    expect(both('1188.44').venue.futures.liquidations()).not.toEqual([]);
  });

  it('liquidates a tick beyond the shown liquidation price and not a tick before it', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 50 }), fc.constantFrom('buy' as const, 'sell' as const), fc.integer({ min: 10, max: 5_000 }), (leverage, side, lots) => {
      const open = (): FuturesFixture | undefined => {
        const f = makeFuturesVenue({ g: { futures: { USDT: '1000' } } });
        f.market(SYMBOL).setBook([[250000, 10_000]], [[249900, 10_000]]);
        f.venue.futures.setLeverage('g', SYMBOL, String(leverage));
        try {
          f.venue.placeOrder('g', { symbol: SYMBOL, side, type: 'market', quantity: new Decimal(lots).dividedBy(1000).toFixed() });
        } catch {
          return undefined;
        }
        return f;
      };
      const safe = open();
      const price = safe?.venue.futures.account('g', SYMBOL).positions?.[0]?.price_liquidation;
      if (safe === undefined || price === undefined) return;
      const tick = new Decimal('0.01');
      safe.venue.futures.applyFuturesInfo(info((side === 'buy' ? price.plus(tick) : price.minus(tick)).toFixed()), T0 + 1);
      expect(safe.venue.futures.liquidations()).toEqual([]);
      const beyond = open() as FuturesFixture;
      const past = side === 'buy' ? price.minus(tick) : price.plus(tick);
      if (past.lessThanOrEqualTo(0)) return;
      beyond.venue.futures.applyFuturesInfo(info(past.toFixed()), T0 + 1);
      expect(beyond.venue.futures.liquidations()).toHaveLength(1);
    }));
  });

  it('after any mark path: margin balance never negative, open positions cover maintenance, money is conserved', () => {
    const marks = fc.array(fc.integer({ min: 150_000, max: 350_000 }), { minLength: 1, maxLength: 20 });
    fc.assert(fc.property(fc.integer({ min: 1, max: 50 }), fc.constantFrom('buy' as const, 'sell' as const), fc.integer({ min: 1, max: 5_000 }), marks, (leverage, side, lots, path) => {
      const f = makeFuturesVenue({ g: { futures: { USDT: '1000' } } });
      f.market(SYMBOL).setBook([[250000, 10_000]], [[249900, 10_000]]);
      f.venue.futures.setLeverage('g', SYMBOL, String(leverage));
      try {
        f.venue.placeOrder('g', { symbol: SYMBOL, side, type: 'market', quantity: new Decimal(lots).dividedBy(1000).toFixed() });
      } catch {
        return; // not affordable at this leverage: nothing to check
      }
      path.forEach((ticks, i) => {
        const mark = new Decimal(ticks).dividedBy(100);
        f.venue.futures.applyFuturesInfo(info(mark.toFixed()), T0 + 1 + i);
        const view = f.venue.futures.account('g', SYMBOL);
        const balance = view.currencies[0]?.margin_balance as Decimal;
        expect(balance.isNegative()).toBe(false);
        const position = view.positions?.[0];
        if (position !== undefined) {
          // Maintenance oracle: |q| x mark / (2 L), rounded up to 0.00001.
          const maintenance = position.quantity.abs().times(mark).dividedBy(2 * leverage).times(1e5).ceil().dividedBy(1e5);
          expect(balance.greaterThanOrEqualTo(maintenance)).toBe(true);
        }
      });
      if (f.venue.futures.accounts('g').length > 0) f.venue.futures.closePosition('g', SYMBOL);
      const cash = new Decimal(f.balance('g').available);
      expect(cash.plus(f.venue.feesCollected('USDT')).toFixed())
        .toBe(new Decimal(1000).plus(f.venue.outsideFlow('USDT')).plus(f.venue.futures.insurancePaid('USDT')).toFixed());
    }));
  });
});
