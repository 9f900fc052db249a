import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Decimal} from '../../../framework/model/decimal.js';
import { ZERO } from '../../../framework/model/decimal.js';
import type { Instrument } from '../../../framework/model/instrument.js';
import type { Order } from '../../../framework/model/resources/order.js';
import { effectiveRates } from '../../../backtest/venue/fees.js';
import { limitNeed, marketNeed } from '../../../backtest/venue/reservations.js';
import { VenueRejection, type NewOrderRequest } from '../../../backtest/venue/venue-types.js';
import { ReplayedSymbolMarket } from '../../../backtest/venue/matching/replayed-symbol-market.js';
import type { SymbolMarket } from '../../../backtest/venue/matching/market-port.js';
import { FakeSymbolMarket } from './support/fake-symbol-market.js';
import { bookSnapshot, BTCUSDT, ETHUSDT, makeVenue, T0, tradesFrame, type VenueFixture } from './support/venue-fixture.js';

const INSTRUMENTS: Record<string, Instrument> = { ETHUSDT, BTCUSDT };
const START: Record<string, Record<string, string>> = {
  a: { USDT: '20000', ETH: '4', BTC: '0.2' },
  b: { USDT: '3000', ETH: '1' },
};
const WALLET = { a: { USDT: '500', ETH: '1' }, b: {} } as const;
const CURRENCIES = ['USDT', 'ETH', 'BTC'];
const MID: Record<string, number> = { ETHUSDT: 250000, BTCUSDT: 600000 };

const symbolArb = fc.constantFrom('ETHUSDT', 'BTCUSDT');
const accountArb = fc.constantFrom('a', 'b');
const offsetArb = fc.integer({ min: -40, max: 40 });
const lotsArb = fc.integer({ min: 1, max: 12_000 });

const orderArb = fc.record({
  account: accountArb,
  symbol: symbolArb,
  side: fc.constantFrom('buy' as const, 'sell' as const),
  type: fc.constantFrom('limit', 'limit', 'market', 'stopLimit', 'stopMarket', 'takeProfitLimit', 'takeProfitMarket') as fc.Arbitrary<NewOrderRequest['type'] & string>,
  tif: fc.constantFrom('GTC', 'GTC', 'IOC', 'FOK', 'Day', 'GTD') as fc.Arbitrary<NewOrderRequest['time_in_force'] & string>,
  priceOffset: offsetArb,
  stopOffset: offsetArb,
  lots: lotsArb,
  postOnly: fc.boolean(),
});

type OrderCommand = typeof orderArb extends fc.Arbitrary<infer T> ? T : never;

type Command =
  | { kind: 'book'; symbol: string; spread: number; askLots: number[]; bidLots: number[] }
  | { kind: 'order'; order: OrderCommand }
  | { kind: 'oco'; account: string; symbol: string; lots: number; up: number; down: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'replace'; pick: number; lotsDelta: number; priceDelta: number }
  | { kind: 'trade'; symbol: string; offset: number; lots: number; side: 'buy' | 'sell' }
  | { kind: 'time'; ms: number }
  | { kind: 'transfer'; account: string; currency: string; amount: number; toSpot: boolean };

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('book' as const), symbol: symbolArb, spread: fc.integer({ min: 1, max: 20 }), askLots: fc.array(lotsArb, { maxLength: 4 }), bidLots: fc.array(lotsArb, { maxLength: 4 }) }),
  { arbitrary: fc.record({ kind: fc.constant('order' as const), order: orderArb }), weight: 6 },
  fc.record({ kind: fc.constant('oco' as const), account: accountArb, symbol: symbolArb, lots: lotsArb, up: fc.integer({ min: 1, max: 40 }), down: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('replace' as const), pick: fc.nat(), lotsDelta: fc.integer({ min: -5000, max: 5000 }), priceDelta: fc.integer({ min: -10, max: 10 }) }),
  { arbitrary: fc.record({ kind: fc.constant('trade' as const), symbol: symbolArb, offset: offsetArb, lots: lotsArb, side: fc.constantFrom('buy' as const, 'sell' as const) }), weight: 6 },
  fc.record({ kind: fc.constant('time' as const), ms: fc.integer({ min: 1, max: 2 * 86_400_000 }) }),
  fc.record({ kind: fc.constant('transfer' as const), account: accountArb, currency: fc.constantFrom(...CURRENCIES), amount: fc.integer({ min: 1, max: 2000 }), toSpot: fc.boolean() }),
);

function price(symbol: string, offset: number): string {
  return (INSTRUMENTS[symbol] as Instrument).ticksToPrice(Math.max(1, (MID[symbol] as number) + offset));
}

function run(f: VenueFixture, c: Command): void {
  const v = f.venue;
  switch (c.kind) {
    case 'book': {
      const mid = MID[c.symbol] as number;
      const inst = INSTRUMENTS[c.symbol] as Instrument;
      v.onMarketFrame(bookSnapshot(inst, c.askLots.map((l, i) => [mid + c.spread + i, l]), c.bidLots.map((l, i) => [mid - c.spread - i, l]), v.now()), v.now() + 10);
      return;
    }
    case 'order': {
      const o = c.order;
      const inst = INSTRUMENTS[o.symbol] as Instrument;
      v.placeOrder(o.account, {
        symbol: o.symbol, side: o.side, type: o.type, time_in_force: o.tif, quantity: inst.lotsToQuantity(o.lots),
        price: price(o.symbol, o.priceOffset), stop_price: price(o.symbol, o.stopOffset), post_only: o.postOnly,
        expire_time: v.now() + 3_600_000,
      });
      return;
    }
    case 'oco': {
      const inst = INSTRUMENTS[c.symbol] as Instrument;
      const q = inst.lotsToQuantity(c.lots);
      v.placeOrderList(c.account, {
        contingency_type: 'oneCancelOther',
        orders: [
          { symbol: c.symbol, side: 'sell', quantity: q, price: price(c.symbol, c.up) },
          { symbol: c.symbol, side: 'sell', type: 'stopMarket', quantity: q, stop_price: price(c.symbol, -c.down) },
        ],
      });
      return;
    }
    case 'cancel':
    case 'replace': {
      const open = [...v.openOrders('a'), ...v.openOrders('b')];
      const target = open[c.pick % Math.max(1, open.length)];
      if (target === undefined) return;
      const account = v.openOrders('a').some((o) => o.client_order_id === target.client_order_id) ? 'a' : 'b';
      if (c.kind === 'cancel') {
        v.cancelOrder(account, target.client_order_id);
        return;
      }
      const inst = INSTRUMENTS[target.symbol] as Instrument;
      const lots = Math.max(1, inst.quantityToLots(target.quantity.toFixed()) + c.lotsDelta);
      const p = target.price === undefined ? undefined : inst.ticksToPrice(Math.max(1, inst.priceToTicks(target.price.toFixed()) + c.priceDelta));
      v.replaceOrder(account, { client_order_id: target.client_order_id, quantity: inst.lotsToQuantity(lots), price: p });
      return;
    }
    case 'trade': {
      const inst = INSTRUMENTS[c.symbol] as Instrument;
      // Matched by the exchange as the frame arrives: a trade stamped earlier would pass by orders rested since.
      const at = v.now() + 10;
      v.onMarketFrame(tradesFrame(c.symbol, [{ p: price(c.symbol, c.offset), q: inst.lotsToQuantity(c.lots), s: c.side, t: at }]), at);
      return;
    }
    case 'time':
      v.advanceTo(v.now() + c.ms);
      return;
    case 'transfer':
      v.transfer(c.account, { currency: c.currency, amount: String(c.amount), source: c.toSpot ? 'wallet' : 'spot', destination: c.toSpot ? 'spot' : 'wallet' });
      return;
  }
}

/** What open orders must hold, computed from the Order resources alone. */
function expectedReserved(orders: readonly Order[]): Map<string, Decimal> {
  const groups = new Map<string, Map<string, Decimal>>();
  for (const o of orders) {
    if (o.inactive === true) continue;
    const inst = INSTRUMENTS[o.symbol] as Instrument;
    const rates = effectiveRates(inst.info);
    const need = o.price !== undefined
      ? limitNeed(inst, o.side, o.price, o.quantity.minus(o.quantity_cumulative), rates)
      : marketNeed(inst, o.side, o.stop_price as Decimal, o.quantity.minus(o.quantity_cumulative), rates);
    const shared = o.contingency_type === 'oneCancelOther' || (o.contingency_type === 'oneTriggerOneCancelOther' && o.client_order_id !== o.order_list_id);
    const key = shared ? `list:${o.order_list_id}` : `order:${o.client_order_id}`;
    const g = groups.get(key) ?? new Map<string, Decimal>();
    groups.set(key, g);
    const prev = g.get(need.currency) ?? ZERO;
    const amount = need.amount.toDecimal();
    if (amount.greaterThan(prev)) g.set(need.currency, amount);
  }
  const out = new Map<string, Decimal>();
  for (const g of groups.values()) for (const [c, a] of g) out.set(c, (out.get(c) ?? ZERO).plus(a));
  return out;
}

function checkInvariants(f: VenueFixture): void {
  const v = f.venue;
  for (const currency of CURRENCIES) {
    let held = ZERO;
    let start = ZERO;
    for (const account of ['a', 'b'] as const) {
      for (const b of [...v.spotBalances(account), ...v.walletBalances(account)]) if (b.currency === currency) held = held.plus(b.available).plus(b.reserved);
      start = start.plus(START[account]?.[currency] ?? '0').plus((WALLET[account] as Record<string, string>)[currency] ?? '0');
    }
    expect(held.plus(v.feesCollected(currency)).toFixed(), `conservation of ${currency}`).toBe(start.plus(v.outsideFlow(currency)).toFixed());
  }
  for (const account of ['a', 'b']) {
    const expected = expectedReserved(v.openOrders(account));
    for (const b of v.spotBalances(account)) {
      expect(b.available.isNegative(), `available ${b.currency}`).toBe(false);
      expect(b.reserved.toFixed(), `reserved ${account} ${b.currency}`).toBe((expected.get(b.currency as string) ?? ZERO).toFixed());
    }
  }
}

const FACTORIES: [string, (inst: Instrument) => SymbolMarket][] = [
  ['the fake market', (inst) => new FakeSymbolMarket(inst.symbol, inst)],
  ['the replayed market', (inst) => new ReplayedSymbolMarket(inst)],
];

describe.each(FACTORIES)('SimulatedVenue properties over random order and market sequences, on %s', (_name, factory) => {
  it('conserves funds, never overdraws, reserves exactly what open orders need, never fills better than allowed', () => {
    const seen = { trades: 0, makerTrades: 0, rejections: 0, lists: 0, expiries: 0 };
    fc.assert(
      fc.property(fc.array(commandArb, { minLength: 1, maxLength: 40 }), (commands) => {
        const f = makeVenue({ a: { spot: START['a'], wallet: WALLET.a }, b: { spot: START['b'] } }, T0, factory);
        f.venue.onMarketFrame(bookSnapshot(ETHUSDT, [[250010, 20000], [250020, 20000]], [[249990, 20000]]), T0);
        f.venue.onMarketFrame(bookSnapshot(BTCUSDT, [[600010, 100000]], [[599990, 100000]]), T0);
        for (const c of commands) {
          const bookBefore = new Map(['ETHUSDT', 'BTCUSDT'].map((s) => [s, { ask: f.symbolMarket(s).bestAskTicks, bid: f.symbolMarket(s).bestBidTicks }]));
          const before = f.events.length;
          try {
            run(f, c);
          } catch (e) {
            if (!(e instanceof VenueRejection)) throw e;
            seen.rejections++;
            expect(f.events.length, 'a refused request emits nothing').toBe(before);
          }
          for (const e of f.events.slice(before)) {
            if (e.kind === 'order' && e.report.contingency_type !== undefined) seen.lists++;
            if (e.kind === 'order' && e.cause.kind === 'timer') seen.expiries++;
            if (e.kind !== 'order' || e.report.report_type !== 'trade') continue;
            const r = e.report;
            seen.trades++;
            if (r.trade_taker === false) seen.makerTrades++;
            const inst = INSTRUMENTS[r.symbol] as Instrument;
            const ticks = inst.priceToTicks((r.trade_price as Decimal).toFixed(inst.priceScale));
            if (r.price !== undefined && !r.type.endsWith('Market')) {
              const limit = inst.priceToTicks(r.price.toFixed(inst.priceScale));
              expect(r.side === 'buy' ? ticks <= limit : ticks >= limit, 'within the limit').toBe(true);
              if (r.trade_taker === false) expect(ticks).toBe(limit);
            }
            const top = bookBefore.get(r.symbol);
            if (r.trade_taker === true && top !== undefined && c.kind !== 'book') {
              expect(r.side === 'buy' ? ticks >= top.ask : ticks <= top.bid, 'no better than the book').toBe(true);
            }
          }
          checkInvariants(f);
        }
      }),
      { numRuns: 200 },
    );
    // the sequences must actually exercise executions, refusals, lists and expiries
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(0);
  });
});
