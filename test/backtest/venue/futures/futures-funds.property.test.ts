import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../../framework/model/decimal.js';
import { futuresPositionRows } from '../../../../backtest/report/futures-positions.js';
import { VenueRejection, type VenueEvent } from '../../../../backtest/venue/venue-types.js';
import { T0 } from '../support/venue-fixture.js';
import { makeFuturesVenue, type FuturesFixture } from '../support/futures-fixture.js';

const PERP = 'ETHUSDT_PERP';
const HOUR = 3_600_000;
const ZERO = new Decimal(0);

/** What a random run does; every step may be refused (a VenueRejection), which changes nothing. */
const step = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('futures' as const), side: fc.constantFrom('buy' as const, 'sell' as const), lots: fc.oneof(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 400, max: 20_000 })), reduceOnly: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('spot' as const), side: fc.constantFrom('buy' as const, 'sell' as const), lots: fc.integer({ min: 1, max: 5_000 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('mark' as const), ticks: fc.integer({ min: 220_000, max: 280_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('margin' as const), amount: fc.integer({ min: 0, max: 4_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('transfer' as const), toSpot: fc.boolean(), amount: fc.integer({ min: 1, max: 3_000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('leverage' as const), leverage: fc.integer({ min: 1, max: 50 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('time' as const), hours: fc.integer({ min: 1, max: 9 }) }) },
);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

interface Run {
  readonly f: FuturesFixture;
  now: number;
}

function start(): Run {
  const f = makeFuturesVenue({ a: { wallet: { USDT: '3000', ETH: '1' }, spot: { USDT: '2000', ETH: '2' }, futures: { USDT: '1000' } } }, { defaultFundingRate: '0.001' });
  f.market(PERP).setBook([[250000, 1_000_000_000]], [[249900, 1_000_000_000]]);
  f.market('ETHUSDT').setBook([[250100, 1_000_000_000]], [[249800, 1_000_000_000]]);
  // Leverage 20 from the start: positions large enough for marks to liquidate them.
  f.venue.futures.setLeverage('a', PERP, '20');
  return { f, now: T0 };
}

function apply(run: Run, s: Step): void {
  const { venue } = run.f;
  try {
    if (s.kind === 'futures') {
      venue.placeOrder('a', { symbol: PERP, side: s.side, type: 'market', quantity: new Decimal(s.lots).dividedBy(1000).toFixed(), reduce_only: s.reduceOnly });
    } else if (s.kind === 'spot') {
      venue.placeOrder('a', { symbol: 'ETHUSDT', side: s.side, type: 'market', quantity: new Decimal(s.lots).dividedBy(10_000).toFixed() });
    } else if (s.kind === 'mark') {
      run.now += 1;
      const mark = new Decimal(s.ticks).dividedBy(100).toFixed();
      venue.futures.applyFuturesInfo({ [PERP]: { contract_type: 'perpetual', mark_price: mark, index_price: mark, open_interest: '1', timestamp: new Date(run.now).toISOString() } }, run.now);
    } else if (s.kind === 'margin') {
      venue.futures.updateAccount('a', PERP, { margin_balance: String(s.amount) });
    } else if (s.kind === 'transfer') {
      venue.transfer('a', { currency: 'USDT', amount: String(s.amount), source: s.toSpot ? 'wallet' : 'spot', destination: s.toSpot ? 'spot' : 'wallet' });
    } else if (s.kind === 'leverage') {
      venue.futures.setLeverage('a', PERP, String(s.leverage));
    } else {
      run.now += s.hours * HOUR;
      venue.advanceTo(run.now);
    }
  } catch (error) {
    if (!(error instanceof VenueRejection)) throw error;
  }
}

/** The account's futures cash (margin balance less unrealized PnL) in USDT. */
function futuresCash(f: FuturesFixture): Decimal {
  const view = f.venue.futures.account('a', PERP);
  return (view.currencies[0]?.margin_balance ?? ZERO).minus(view.positions?.[0]?.pnl ?? ZERO);
}

function held(f: FuturesFixture, currency: string): Decimal {
  const spot = f.venue.spotBalances('a').find((b) => b.currency === currency);
  const wallet = f.venue.walletBalances('a').find((b) => b.currency === currency);
  return (spot?.available ?? ZERO).plus(spot?.reserved ?? ZERO).plus(wallet?.available ?? ZERO).plus(wallet?.reserved ?? ZERO);
}

describe('SimulatedVenue funds across wallet, spot and futures', () => {
  it('are conserved per currency: wallet + spot + futures cash + fees = start + outside flows + insurance payouts', () => {
    fc.assert(fc.property(fc.array(step, { minLength: 15, maxLength: 60 }), (steps) => {
      const run = start();
      for (const s of steps) {
        apply(run, s);
        const { venue } = run.f;
        const usdt = held(run.f, 'USDT').plus(futuresCash(run.f)).plus(venue.feesCollected('USDT'));
        expect(usdt.toFixed()).toBe(new Decimal(6000).plus(venue.outsideFlow('USDT')).plus(venue.futures.insurancePaid('USDT')).toFixed());
        expect(held(run.f, 'ETH').plus(venue.feesCollected('ETH')).toFixed()).toBe(new Decimal(3).plus(venue.outsideFlow('ETH')).toFixed());
      }
    }), { numRuns: 150 });
  });

  it('a position\'s realized PnL is its executions\' sell value less buy value once flat; cash moves by realized - fees + funding', () => {
    fc.assert(fc.property(fc.array(step, { minLength: 15, maxLength: 60 }), (steps) => {
      const run = start();
      const cashBefore = futuresCash(run.f);
      let moved = ZERO; // margin moved in (+) and out (-) of the futures account by requests
      for (const s of steps) {
        const before = futuresCash(run.f);
        apply(run, s);
        if (s.kind === 'margin') moved = moved.plus(futuresCash(run.f).minus(before));
      }
      // Flatten, so every position is closed.
      try {
        run.f.venue.futures.closePosition('a', PERP);
      } catch (error) {
        if (!(error instanceof VenueRejection)) throw error;
      }
      // The oracle: every execution of the account on the contract, from the venue's reports (order
      // trades) and its liquidation events, summed per position.
      const flows = new Map<string, { value: Decimal; fees: Decimal }>();
      const add = (position: string, sellValue: Decimal, fee: Decimal) => {
        const entry = flows.get(position) ?? { value: ZERO, fees: ZERO };
        flows.set(position, { value: entry.value.plus(sellValue), fees: entry.fees.plus(fee) });
      };
      for (const event of run.f.events as VenueEvent[]) {
        if (event.kind === 'order' && event.report.symbol === PERP && event.report.report_type === 'trade') {
          const r = event.report;
          const value = r.trade_quantity!.times(r.trade_price!);
          add(r.trade_position_id!, r.side === 'sell' ? value : value.negated(), r.trade_fee ?? ZERO);
        } else if (event.kind === 'liquidation') {
          const l = event.liquidation;
          const value = l.quantity.abs().times(l.price);
          add(l.positionId, l.quantity.isPositive() ? value : value.negated(), l.fee);
        }
      }
      const history = run.f.venue.futures.positionHistory('a');
      expect(history.every((p) => p.state !== 'active')).toBe(true);
      expect(new Set(history.map((p) => p.id))).toEqual(new Set(flows.keys()));
      const funding = new Map<string, Decimal>();
      for (const c of run.f.venue.futures.clearing('a')) funding.set(c.position_id!, (funding.get(c.position_id!) ?? ZERO).plus(c.amount));
      let net = ZERO;
      for (const p of history) {
        const flow = flows.get(p.id)!;
        expect(p.pnl?.toFixed()).toBe(flow.value.toFixed());
        net = net.plus(flow.value).minus(flow.fees).plus(funding.get(p.id) ?? ZERO);
      }
      // The report's positions (built from the trade history, not the reports) agree with the oracle.
      const rows = futuresPositionRows(run.f.venue.tradeHistory('a'), run.f.venue.futures.clearing('a'), history);
      expect(rows.map((r) => [r.positionId, r.realized.toFixed(), r.fees.toFixed(), r.funding.toFixed()]).sort())
        .toEqual(history.map((p) => [p.id, flows.get(p.id)!.value.toFixed(), flows.get(p.id)!.fees.toFixed(), (funding.get(p.id) ?? ZERO).toFixed()]).sort());
      const insurance = run.f.venue.futures.insurancePaid('USDT');
      expect(futuresCash(run.f).minus(cashBefore).minus(moved).toFixed()).toBe(net.plus(insurance).toFixed());
    }), { numRuns: 150 });
  });

  it('keeps the margin balance above maintenance after every mark and funding, and cash negative only without positions', () => {
    fc.assert(fc.property(fc.array(step, { minLength: 15, maxLength: 60 }), (steps) => {
      const run = start();
      for (const s of steps) {
        const fundings = run.f.venue.futures.clearing('a').length;
        apply(run, s);
        // The documented check runs after market frames, futures info and funding, never inside a
        // request (a trade may leave the account below maintenance until the next of those).
        const funded = s.kind === 'time' && run.f.venue.futures.clearing('a').length > fundings;
        if (s.kind !== 'mark' && !funded) continue;
        const view = run.f.venue.futures.account('a', PERP);
        const position = view.positions?.[0];
        const cash = futuresCash(run.f);
        if (position === undefined) continue;
        // Documented rule: maintenance = mark value / (leverage x liquidation_leverage_mul 2), before rounding up.
        const mark = run.f.venue.futures.markPrice(PERP)!;
        const maintenance = mark.times(position.quantity.abs()).dividedBy(view.leverage.times(2));
        expect(view.currencies[0]!.margin_balance.greaterThanOrEqualTo(maintenance)).toBe(true);
        expect(cash.isNegative()).toBe(false);
      }
    }), { numRuns: 150 });
  });
});
