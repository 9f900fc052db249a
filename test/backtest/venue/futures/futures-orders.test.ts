import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../../framework/model/decimal.js';
import { T0, tradesFrame } from '../support/venue-fixture.js';
import { makeFuturesVenue, rejection, type FuturesFixture } from '../support/futures-fixture.js';

const SYMBOL = 'ETHUSDT_PERP';

/** PERP book: ask 2500.00 x 2, bid 2499.00 x 2 (ticks of 0.01, lots of 0.001). */
function withBook(f = makeFuturesVenue()): FuturesFixture {
  f.market(SYMBOL).setBook([[250000, 2000]], [[249900, 2000]]);
  return f;
}

function position(f: FuturesFixture, account = 'f'): { quantity: string; price_entry: string; pnl: string } | undefined {
  const p = f.venue.futures.account(account, SYMBOL).positions?.[0];
  return p === undefined ? undefined : { quantity: p.quantity.toFixed(), price_entry: p.price_entry.toFixed(), pnl: p.pnl?.toFixed() ?? '' };
}

describe('SimulatedVenue futures: orders and margin', () => {
  it('a limit order holds notional / leverage + fee at max(take, make) of futures margin, never spot funds', () => {
    const f = withBook();
    f.venue.futures.setLeverage('f', SYMBOL, '10');
    f.venue.placeOrder('f', { client_order_id: 'l1', symbol: SYMBOL, side: 'buy', quantity: '1', price: '2490' });
    // 2490 / 10 = 249, fee provision 2490 x 0.0005 = 1.245
    expect(f.balance('f')).toEqual({ available: '9749.755', reserved: '250.245', reserved_margin: '0' });
    expect(f.venue.spotBalances('f')).toEqual([{ currency: 'USDT', available: new Decimal(1000), reserved: new Decimal(0) }]);
    f.venue.cancelOrder('f', 'l1');
    expect(f.balance('f')).toEqual({ available: '10000', reserved: '0', reserved_margin: '0' });
  });

  it('fills open, reduce and flip the position; PnL, fees and margin as computed by hand', () => {
    const f = withBook();
    f.venue.futures.setLeverage('f', SYMBOL, '10');
    f.venue.placeOrder('f', { client_order_id: 'b1', symbol: SYMBOL, side: 'buy', type: 'market', quantity: '1' });
    // Bought 1 at 2500, fee 1.25; margin 250; mark = mid (2500 + 2499) / 2 = 2499.5, unrealized -0.5.
    expect(position(f)).toEqual({ quantity: '1', price_entry: '2500', pnl: '-0.5' });
    expect(f.balance('f')).toEqual({ available: '9748.25', reserved: '250', reserved_margin: '250' });

    f.venue.placeOrder('f', { client_order_id: 's1', symbol: SYMBOL, side: 'sell', type: 'market', quantity: '0.4' });
    // Sold 0.4 at 2499: realized 0.4 x (2499 - 2500) = -0.4, fee 0.4998; cash 10000 - 1.25 - 0.4 - 0.4998.
    expect(position(f)).toEqual({ quantity: '0.6', price_entry: '2500', pnl: '-0.3' });
    const account = f.venue.futures.account('f', SYMBOL);
    expect(account.currencies[0]?.margin_balance.toFixed()).toBe('9997.5502');
    expect(account.currencies[0]?.reserved_positions.toFixed()).toBe('150');
    expect(f.venue.tradeHistory('f')[0]?.pnl?.toFixed()).toBe('-0.4');

    f.venue.placeOrder('f', { client_order_id: 's2', symbol: SYMBOL, side: 'sell', type: 'market', quantity: '1' });
    // Sold 1 at 2499: closes 0.6 (realized -0.6), opens a 0.4 short at 2499; fee 1.2495.
    // Bids left: 2499 x 0.6, so the mid is still 2499.5: the short's unrealized is 0.4 x (2499 - 2499.5) = -0.2.
    expect(position(f)).toEqual({ quantity: '-0.4', price_entry: '2499', pnl: '-0.2' });
    // A flip keeps the position: one active record, its realized PnL -0.4 - 0.6.
    expect(f.venue.futures.positionHistory('f').map((p) => [p.state, p.quantity.toFixed(), p.entry_value?.toFixed(), p.pnl?.toFixed()])).toEqual([['active', '-0.4', '999.6', '-1']]);
    const cash = 10000 * 1e4 - 1.25e4 - 0.4e4 - 0.4998e4 - 0.6e4 - 1.2495e4; // in 1e-4 USDT, exact integers
    expect(f.venue.futures.account('f', SYMBOL).currencies[0]?.margin_balance.toFixed()).toBe(new Decimal(cash).dividedBy(1e4).minus('0.2').toFixed());
    expect(f.venue.feesCollected('USDT').toFixed()).toBe('2.9993');
    expect(f.venue.outsideFlow('USDT').toFixed()).toBe('-1');
    // Conservation: cash + fees = start + what came in from the outside.
    expect(f.venue.futures.account('f', SYMBOL).currencies[0]?.margin_balance.plus('0.2').plus(f.venue.feesCollected('USDT')).toFixed()).toBe('9999');
  });

  it('refuses an order the margin balance cannot hold with 20001', () => {
    const f = withBook();
    const e = rejection(() => f.venue.placeOrder('g', { symbol: SYMBOL, side: 'buy', quantity: '1', price: '2490' }));
    expect(e.code).toBe(20001);
    expect(f.balance('g')).toEqual({ available: '100', reserved: '0', reserved_margin: '0' });
  });

  it('reduce_only: refused when it cannot reduce (20044), cut to the position at fill and the rest expires', () => {
    const f = withBook();
    expect(rejection(() => f.venue.placeOrder('f', { symbol: SYMBOL, side: 'sell', quantity: '1', price: '2600', reduce_only: true })).code).toBe(20044);
    f.venue.placeOrder('f', { client_order_id: 'b1', symbol: SYMBOL, side: 'buy', type: 'market', quantity: '1' });
    expect(rejection(() => f.venue.placeOrder('f', { symbol: SYMBOL, side: 'buy', quantity: '1', price: '2400', reduce_only: true })).code).toBe(20044);
    const ro = f.venue.placeOrder('f', { client_order_id: 'ro', symbol: SYMBOL, side: 'sell', quantity: '2', price: '2510', reduce_only: true });
    expect(ro.reduce_only).toBe(true);
    // A reduce-only order holds no margin: only the position's 2500 / 1 = 2500 is reserved.
    expect(f.balance('f').reserved).toBe('2500');
    f.venue.onMarketFrame(tradesFrame(SYMBOL, [{ p: '2510', q: '5', s: 'buy' }]), T0 + 1000);
    expect(f.reports().filter((r) => r.startsWith('ro:'))).toEqual(['ro:new:new', 'ro:trade:partiallyFilled', 'ro:expired:expired']);
    expect(position(f)).toBeUndefined();
    expect(f.venue.futures.positionHistory('f').map((p) => [p.state, p.pnl?.toFixed()])).toEqual([['closed', '10']]);
    // Realized 1 x (2510 - 2500) = 10; fees 1.25 (taker) + 2510 x 0.0002 = 0.502 (maker).
    expect(f.balance('f')).toEqual({ available: '10008.248', reserved: '0', reserved_margin: '0' });
  });

  it('reduce_only is refused on spot symbols (10001)', () => {
    const f = withBook();
    expect(rejection(() => f.venue.placeOrder('f', { symbol: 'ETHUSDT', side: 'buy', quantity: '0.1', price: '2000', reduce_only: true })).code).toBe(10001);
  });

  it('closes a whole position at market, or with a resting reduce-only limit', () => {
    const f = withBook();
    expect(rejection(() => f.venue.futures.closePosition('f', SYMBOL)).code).toBe(20002);
    f.venue.placeOrder('f', { symbol: SYMBOL, side: 'sell', type: 'market', quantity: '0.5' });
    const limit = f.venue.futures.closePosition('f', SYMBOL, '2450');
    expect(limit).toMatchObject({ side: 'buy', type: 'limit', reduce_only: true, status: 'new' });
    expect(limit.quantity.toFixed()).toBe('0.5');
    f.venue.cancelOrder('f', limit.client_order_id);
    const market = f.venue.futures.closePosition('f', SYMBOL);
    expect(market).toMatchObject({ side: 'buy', type: 'market', status: 'filled' });
    expect(f.venue.futures.accounts('f')).toEqual([]);
    // Short 0.5 at 2499, bought back at 2500: realized -0.5; fees 0.62475 + 0.625.
    expect(f.balance('f').available).toBe('9998.25025');
  });

  it('leverage: bounds, no change with active orders, 20001 when the position margin would not fit', () => {
    const f = withBook();
    expect(rejection(() => f.venue.futures.setLeverage('f', SYMBOL, '0.5')).code).toBe(10001);
    expect(rejection(() => f.venue.futures.setLeverage('f', SYMBOL, '51')).code).toBe(10001);
    expect(rejection(() => f.venue.futures.setLeverage('f', 'ETHUSDT', '2')).code).toBe(10001);
    expect(rejection(() => f.venue.futures.setLeverage('f', 'NOPE', '2')).code).toBe(2001);
    expect(f.venue.futures.setLeverage('f', SYMBOL, '50').leverage.toFixed()).toBe('50');
    f.venue.placeOrder('f', { client_order_id: 'o', symbol: SYMBOL, side: 'buy', quantity: '1', price: '2400' });
    expect(rejection(() => f.venue.futures.setLeverage('f', SYMBOL, '10')).code).toBe(10001);
    f.venue.cancelOrder('f', 'o');

    f.venue.futures.setLeverage('g', SYMBOL, '10');
    f.venue.placeOrder('g', { symbol: SYMBOL, side: 'buy', type: 'market', quantity: '0.3' });
    // Margin 750 / 10 = 75; at leverage 1 it would be 750 > 100.
    expect(rejection(() => f.venue.futures.setLeverage('g', SYMBOL, '1')).code).toBe(20001);
    expect(f.venue.futures.account('g', SYMBOL).leverage.toFixed()).toBe('10');
    expect(f.venue.futures.setLeverage('g', SYMBOL, '8').currencies[0]?.reserved_positions.toFixed()).toBe('93.75');
  });

  it('emits futures events with the changed balances and positions, a closed position as quantity 0', () => {
    const f = withBook();
    f.venue.placeOrder('f', { symbol: SYMBOL, side: 'buy', type: 'market', quantity: '0.1' });
    const opened = f.events.filter((e) => e.kind === 'futures');
    expect(opened.at(-1)).toMatchObject({ account: 'f', positions: [{ symbol: SYMBOL }] });
    f.venue.futures.closePosition('f', SYMBOL);
    const closed = f.events.filter((e) => e.kind === 'futures').at(-1);
    expect(closed?.kind === 'futures' ? closed.positions.map((p) => [p.symbol, p.quantity.toFixed()]) : []).toEqual([[SYMBOL, '0']]);
  });

  it('refuses allOrNone lists of futures orders', () => {
    const f = withBook();
    const e = rejection(() => f.venue.placeOrderList('f', {
      contingency_type: 'allOrNone',
      orders: [
        { symbol: SYMBOL, side: 'buy', quantity: '0.1', price: '2400', time_in_force: 'FOK' },
        { symbol: SYMBOL, side: 'buy', quantity: '0.1', price: '2401', time_in_force: 'FOK' },
      ],
    }));
    expect(e.code).toBe(10001);
  });
});

describe('SimulatedVenue futures: properties', () => {
  const step = fc.record({ side: fc.constantFrom('buy' as const, 'sell' as const), lots: fc.integer({ min: 1, max: 3_000 }) });

  it('position = signed sum of fills; margin balance = start - fees + cash flows + position x mark (Decimal oracle)', () => {
    fc.assert(fc.property(fc.array(step, { maxLength: 25 }), (steps) => {
      const f = makeFuturesVenue({ f: { futures: { USDT: '100000000' } } });
      f.venue.futures.setLeverage('f', SYMBOL, '20');
      let lots = 0;
      let fees = new Decimal(0);
      let cashFlow = new Decimal(0);
      for (const s of steps) {
        f.market(SYMBOL).setBook([[250000, 1_000_000]], [[249900, 1_000_000]]);
        f.venue.placeOrder('f', { symbol: SYMBOL, side: s.side, type: 'market', quantity: new Decimal(s.lots).dividedBy(1000).toFixed() });
        const price = new Decimal(s.side === 'buy' ? '2500' : '2499');
        const quantity = new Decimal(s.lots).dividedBy(1000);
        lots += s.side === 'buy' ? s.lots : -s.lots;
        fees = fees.plus(price.times(quantity).times('0.0005'));
        cashFlow = s.side === 'buy' ? cashFlow.minus(price.times(quantity)) : cashFlow.plus(price.times(quantity));
        const account = f.venue.futures.account('f', SYMBOL);
        expect(account.positions?.[0]?.quantity.toFixed() ?? '0').toBe(new Decimal(lots).dividedBy(1000).toFixed());
        const mark = new Decimal('2499.5');
        const expected = new Decimal('100000000').minus(fees).plus(cashFlow).plus(mark.times(lots).dividedBy(1000));
        expect(account.currencies[0]?.margin_balance.toFixed()).toBe(expected.toFixed());
      }
    }));
  });

  it('open orders hold the sum of ceil(price x quantity / L) + fee provision, computed on integers', () => {
    const order = fc.record({ ticks: fc.integer({ min: 100_000, max: 249_800 }), lots: fc.integer({ min: 1, max: 5_000 }) });
    fc.assert(fc.property(fc.integer({ min: 1, max: 50 }), fc.array(order, { minLength: 1, maxLength: 10 }), (leverage, orders) => {
      const f = withBook(makeFuturesVenue({ f: { futures: { USDT: '100000000' } } }));
      f.venue.futures.setLeverage('f', SYMBOL, String(leverage));
      // Units of 0.00001 USDT (tick 0.01 x lot 0.001); the fee provision 0.0005 x units is in 0.00000001.
      let marginUnits = 0n;
      let feeUnits = 0n;
      for (const o of orders) {
        f.venue.placeOrder('f', { symbol: SYMBOL, side: 'buy', quantity: String(o.lots / 1000), price: String(o.ticks / 100) });
        const units = BigInt(o.ticks) * BigInt(o.lots);
        marginUnits += (units + BigInt(leverage) - 1n) / BigInt(leverage);
        feeUnits += units * 5n;
      }
      const expected = new Decimal(marginUnits.toString()).dividedBy(1e5).plus(new Decimal(feeUnits.toString()).dividedBy(1e9));
      expect(f.balance('f').reserved).toBe(expected.toFixed());
      expect(f.balance('f').available).toBe(new Decimal('100000000').minus(expected).toFixed());
    }));
  });
});

describe('SimulatedVenue futures: conditional orders', () => {
  it('a stopMarket buy holds margin at its stop price while suspended, then fills whole when triggered', () => {
    const f = withBook();
    f.venue.futures.setLeverage('f', SYMBOL, '10');
    f.venue.placeOrder('f', { client_order_id: 'st', symbol: SYMBOL, side: 'buy', type: 'stopMarket', quantity: '1.5', stop_price: '2500' });
    // 2500 x 1.5 / 10 = 375, fee provision 3750 x 0.0005 = 1.875.
    expect(f.balance('f')).toEqual({ available: '9623.125', reserved: '376.875', reserved_margin: '0' });
    f.market(SYMBOL).setBook([[250000, 1000], [250100, 1000]], [[249900, 2000]]);
    f.venue.onMarketFrame(tradesFrame(SYMBOL, [{ p: '2500', q: '0.1', s: 'buy' }]), T0 + 1000);
    expect(f.reports().filter((r) => r.startsWith('st:'))).toEqual(['st:suspended:suspended', 'st:new:new', 'st:trade:partiallyFilled', 'st:trade:filled']);
    // 1 at 2500 and 0.5 at 2501: entry value 3750.5, average 2500.333...
    const p = f.venue.futures.account('f', SYMBOL).positions?.[0];
    expect(p?.quantity.toFixed()).toBe('1.5');
    expect(p?.price_entry.times('1.5').toFixed()).toBe('3750.5');
  });
});

describe('SimulatedVenue futures: margin balance (PUT futures account)', () => {
  it('moves funds between the spot account and the futures margin, both ways, within what is available', () => {
    const f = withBook();
    const spotUsdt = (): string => f.venue.spotBalances('f').find((b) => b.currency === 'USDT')?.available.toFixed() ?? '';
    expect(f.venue.futures.updateAccount('f', SYMBOL, { margin_balance: '10500' }).currencies[0]?.margin_balance.toFixed()).toBe('10500');
    expect(spotUsdt()).toBe('500');
    expect(rejection(() => f.venue.futures.updateAccount('f', SYMBOL, { margin_balance: '11001' })).code).toBe(20001);
    expect(rejection(() => f.venue.futures.updateAccount('f', SYMBOL, { margin_balance: '-1' })).code).toBe(10001);
    f.venue.futures.setLeverage('f', SYMBOL, '10');
    f.venue.placeOrder('f', { symbol: SYMBOL, side: 'buy', type: 'market', quantity: '1' });
    // Cash 10500 - 1.25 fee; in use: margin 250 and the unrealized loss 0.5; available 10248.25.
    expect(rejection(() => f.venue.futures.updateAccount('f', SYMBOL, { margin_balance: '0' })).code).toBe(20001);
    f.venue.futures.updateAccount('f', SYMBOL, { margin_balance: '250.5' });
    expect(f.balance('f')).toEqual({ available: '0', reserved: '250', reserved_margin: '250' });
    expect(spotUsdt()).toBe(new Decimal('500').plus(new Decimal('10498.75').minus('250.5')).toFixed());
    // A refused margin balance leaves the leverage given with it unchanged.
    expect(rejection(() => f.venue.futures.updateAccount('f', SYMBOL, { leverage: '20', margin_balance: '100000' })).code).toBe(20001);
    expect(f.venue.futures.account('f', SYMBOL).leverage.toFixed()).toBe('10');
  });
});

describe('SimulatedVenue futures: reduce-only in lists', () => {
  it('a oneTriggerOneCancelOther primary cut to the position expires and cancels its inactive secondaries', () => {
    const f = withBook();
    f.venue.placeOrder('f', { symbol: SYMBOL, side: 'buy', type: 'market', quantity: '1' });
    f.venue.placeOrderList('f', {
      contingency_type: 'oneTriggerOneCancelOther',
      orders: [
        { client_order_id: 'p', symbol: SYMBOL, side: 'sell', quantity: '2', price: '2510', reduce_only: true },
        { client_order_id: 's1', symbol: SYMBOL, side: 'buy', quantity: '0.1', price: '2300' },
        { client_order_id: 's2', symbol: SYMBOL, side: 'buy', type: 'stopMarket', quantity: '0.1', stop_price: '2700' },
      ],
    });
    f.venue.onMarketFrame(tradesFrame(SYMBOL, [{ p: '2510', q: '5', s: 'buy' }]), T0 + 1000);
    expect(f.reports().filter((r) => /^(p|s1|s2):/.test(r))).toEqual([
      'p:new:new', 's1:new:new', 's2:suspended:suspended', 'p:trade:partiallyFilled', 'p:expired:expired', 's1:canceled:canceled', 's2:canceled:canceled',
    ]);
    expect(f.venue.openOrders('f')).toEqual([]);
  });
});
