import { setImmediate as macrotask } from 'node:timers/promises';
import fc from 'fast-check';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SimulatedVenue } from '../../backtest/venue/simulated-venue.js';
import { ReplayedSymbolMarket } from '../../backtest/venue/matching/replayed-symbol-market.js';
import type { BookEvent } from '../../framework/exchange/book/book-event.js';
import { ClientOrderIdGenerator } from '../../framework/execution/client-order-ids.js';
import { ExecutionAdapter } from '../../framework/execution/execution-adapter.js';
import { SimulatedVenuePort } from '../../backtest/venue/simulated-venue-port.js';
import { ZERO, dec } from '../../framework/model/decimal.js';
import { Instrument, type Side } from '../../framework/model/instrument.js';
import { OrderRateWindow } from '../../framework/risk/order-rate-window.js';
import { ReservationLedger } from '../../framework/risk/reservation-ledger.js';
import { RiskGate } from '../../framework/risk/risk-gate.js';
import { reservationKey } from '../../framework/runtime/account-views.js';
import { TradingPipeline } from '../../framework/runtime/trading-pipeline.js';
import { VirtualClock } from '../../framework/time/clock.js';
import { book } from '../risk/risk-fixtures.js';
import { SYMBOLS, bookSnapshot } from '../backtest/sandbox/support/sandbox-fixture.js';

const BTC = new Instrument('BTCUSDT', SYMBOLS.BTCUSDT!);
const START = 1_700_000_000_000;
const CURRENCIES = ['USDT', 'BTC'];

/** A venue whose trading requests arrive a turn of the event loop late, so market events can come first. */
class LatentPort extends SimulatedVenuePort {
  override async placeOrder(...args: Parameters<SimulatedVenuePort['placeOrder']>): ReturnType<SimulatedVenuePort['placeOrder']> {
    await macrotask();
    return super.placeOrder(...args);
  }
  override async replaceOrder(...args: Parameters<SimulatedVenuePort['replaceOrder']>): ReturnType<SimulatedVenuePort['replaceOrder']> {
    await macrotask();
    return super.replaceOrder(...args);
  }
  override async cancelOrder(...args: Parameters<SimulatedVenuePort['cancelOrder']>): ReturnType<SimulatedVenuePort['cancelOrder']> {
    await macrotask();
    return super.cancelOrder(...args);
  }
}

/** Venue, adapter and pipeline in one process (see trading-pipeline.test.ts); the pipeline's book is the venue's. */
async function setup(latent: boolean) {
  const clock = new VirtualClock(START);
  const port = latent ? new LatentPort('main') : new SimulatedVenuePort('main');
  const venue = new SimulatedVenue([BTC], { main: { spot: { USDT: '1000', BTC: '5' } } }, (i) => new ReplayedSymbolMarket(i), (e) => port.onVenueEvent(e), clock.now());
  port.attach(venue);
  venue.onMarketFrame(bookSnapshot(), clock.now());
  const adapter = new ExecutionAdapter({ venue: port, ids: new ClientOrderIdGenerator('p', clock), clock, currencies: () => ({ base: 'BTC', quote: 'USDT', fee: 'USDT' }) });
  const ledger = new ReservationLedger();
  const rateWindow = new OrderRateWindow();
  const pipeline = new TradingPipeline({ gate: new RiskGate({}, ledger, rateWindow), executor: adapter, clock, instruments: [BTC], ledger, rateWindow });
  const books = new Subject<BookEvent>();
  pipeline.connect(books);
  await adapter.start();
  pipeline.syncAll();
  books.next({ kind: 'snapshot', symbol: 'BTCUSDT', sequence: 1, book: book(BTC, [['101.00', '1.5'], ['102.00', '2']], [['99.00', '1'], ['98.00', '3']]) });
  return { clock, venue, adapter, ledger, pipeline };
}

type Op =
  | { readonly op: 'place'; readonly side: Side; readonly quantity: number; readonly price: number; readonly type: 'limit' | 'market' | 'stopLimit' | 'postOnly' }
  | { readonly op: 'trade'; readonly side: Side; readonly quantity: number; readonly price: number }
  | { readonly op: 'cancel'; readonly pick: number }
  | { readonly op: 'replace'; readonly pick: number; readonly quantity: number; readonly price: number };

// Quantities in tenths (0.1 to 3), prices in cents inside the 5 % band around 100 (some cross the book);
// limit, market, post-only limit and stop-limit orders (stops away from the 99 / 101 touch).
const side = fc.constantFrom<Side>('buy', 'sell');
const quantity = fc.integer({ min: 1, max: 30 });
const price = fc.integer({ min: 9_700, max: 10_300 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('place' as const), side, quantity, price, type: fc.constantFrom('limit' as const, 'market' as const, 'stopLimit' as const, 'postOnly' as const) }),
  fc.record({ op: fc.constant('trade' as const), side, quantity, price }),
  fc.record({ op: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('replace' as const), pick: fc.nat(), quantity, price }),
);
const qty = (tenths: number): string => (tenths / 10).toFixed(1);
const px = (cents: number): string => (cents / 100).toFixed(2);

describe('TradingPipeline reservations against the simulated venue (property)', () => {
  const counts: Record<string, number> = {};
  /** Runs op sequences; with `latent`, each op goes out while earlier requests may still be on their way, checked when `settle` says. */
  const property = (latent: boolean) => fc.asyncProperty(fc.array(fc.tuple(op, fc.boolean()), { minLength: 1, maxLength: 25 }), async (steps) => {
    const t = await setup(latent);
    let n = 0;
    const count = (key: string): void => void (counts[key] = (counts[key] ?? 0) + 1);
    t.pipeline.reports$.subscribe((r) => count(r.kind === 'order' ? 'order' : `${r.kind}:${r.intent.kind}`));
    t.pipeline.orderReports$.subscribe((r) => count(`order:${r.report.report_type}:${r.report.status}`));
    const settle = async (): Promise<void> => {
      do await macrotask(); while (t.pipeline.inFlight > 0);
    };
    const check = (): void => {
      for (const currency of CURRENCIES) {
        let sum = ZERO;
        for (const r of t.ledger.entries()) {
          expect(r.remaining.isNegative()).toBe(false);
          if (r.currency === currency) sum = sum.plus(r.remaining.toDecimal());
        }
        expect(t.ledger.reserved(currency).toFixed()).toBe(sum.toFixed());
        expect(t.ledger.reserved(currency).isNegative()).toBe(false);
      }
      const atVenue = new Set(t.venue.openOrders('main').map((o) => o.client_order_id));
      for (const tracker of t.adapter.account.open()) expect(atVenue).toContain(tracker.clientOrderId);
      // Nothing is in flight here, so every reservation belongs to an order still open.
      const live = new Set(t.adapter.account.open().map((tracker) => reservationKey(tracker).id));
      for (const r of t.ledger.entries()) expect(live).toContain(r.key.id);
      for (const tracker of t.adapter.account.open()) {
        // Every open order holds at least what it may still spend (limit buy: price x left x (1 + 0.001 max fee)).
        const held = t.ledger.get(reservationKey(tracker));
        expect(held, tracker.clientOrderId).toBeDefined();
        const order = tracker.order!;
        const left = order.quantity.minus(tracker.quantityCumulative);
        const need = order.side === 'sell' ? left : left.times(order.price!).times('1.001');
        expect(held!.remaining.toDecimal().greaterThanOrEqualTo(need), `${tracker.clientOrderId} holds ${held!.remaining.toFixed()}, needs ${need.toFixed()}`).toBe(true);
      }
    };
    for (const [step, settleNow] of steps) {
      n++;
      t.clock.advanceTo(START + n * 100);
      const open = t.adapter.account.open('s');
      if (step.op === 'place') {
        const type = step.type === 'postOnly' ? 'limit' : step.type;
        const stopPrice = type === 'stopLimit' ? dec(px(step.side === 'buy' ? Math.max(step.price, 10_150) : Math.min(step.price, 9_850))) : undefined;
        t.pipeline.submit({ kind: 'place', intentId: `i${n}`, strategyId: 's', symbol: 'BTCUSDT', side: step.side, type, quantity: dec(qty(step.quantity)), price: type === 'market' ? undefined : dec(px(step.price)), stopPrice, postOnly: step.type === 'postOnly' ? true : undefined });
      } else if (step.op === 'trade') {
        t.venue.onMarketFrame({ ch: 'trades', update: { BTCUSDT: [{ t: t.clock.now(), i: n, p: px(step.price), q: qty(step.quantity), s: step.side }] } }, t.clock.now());
      } else if (open.length > 0) {
        const target = open[step.pick % open.length]!.clientOrderId;
        t.pipeline.submit(step.op === 'cancel'
          ? { kind: 'cancel', intentId: `i${n}`, strategyId: 's', clientOrderId: target }
          : { kind: 'replace', intentId: `i${n}`, strategyId: 's', clientOrderId: target, quantity: dec(qty(step.quantity)), price: dec(px(step.price)) });
      }
      if (!latent || settleNow) {
        await settle();
        check();
      }
    }
    await settle();
    t.pipeline.submit({ kind: 'cancelAll', intentId: 'end', strategyId: 's' });
    await settle();
    check();
    expect(t.venue.openOrders('main')).toEqual([]);
    expect(t.adapter.account.open()).toEqual([]);
    for (const currency of CURRENCIES) expect(t.ledger.reserved(currency).toFixed()).toBe('0');
    expect([...t.ledger.entries()]).toEqual([]);
  });

  it('the ledger totals are the live reservations, never negative, zero when all is canceled; the bot has no order the venue lacks', async () => {
    // Seeded: the coverage check below counts what these runs happened to do, which an unseeded run
    // misses now and then (about 1 run in 40 lacked an expiry). The latent property below stays unseeded.
    await fc.assert(property(false), { numRuns: 200, seed: 1_795_000_000 });
    // The runs did exercise the paths: partial fills, replaces, cancels, denials, stops waiting, expiries.
    for (const seen of ['order:trade:partiallyFilled', 'order:trade:filled', 'accepted:replace', 'accepted:cancel', 'denied:place', 'order:suspended:suspended', 'order:expired:expired']) expect(counts[seen]).toBeGreaterThan(0);
  });

  it('the same with requests in flight while the market trades (latent venue)', async () => {
    await fc.assert(property(true), { numRuns: 200 });
  });
});
