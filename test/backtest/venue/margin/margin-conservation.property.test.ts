import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../../framework/model/decimal.js';
import { VenueRejection } from '../../../../backtest/venue/venue-types.js';
import { T0, tradesFrame } from '../support/venue-fixture.js';
import { makeMarginVenue } from '../support/margin-fixture.js';

const SYMBOL = 'ETHUSDT';

const side = fc.constantFrom('buy' as const, 'sell' as const);
const step = fc.oneof(
  fc.record({ kind: fc.constant('spot' as const), side, lots: fc.integer({ min: 1, max: 5_000 }) }),
  fc.record({ kind: fc.constant('margin' as const), side, lots: fc.integer({ min: 1, max: 5_000 }), limit: fc.boolean(), reduceOnly: fc.boolean() }),
  fc.record({ kind: fc.constant('fund' as const), amount: fc.integer({ min: 0, max: 4_000 }) }),
  fc.record({ kind: fc.constant('leverage' as const), leverage: fc.integer({ min: 1, max: 10 }) }),
  fc.record({ kind: fc.constant('move' as const), ticks: fc.integer({ min: 150_000, max: 350_000 }) }),
  fc.record({ kind: fc.constant('print' as const), ticks: fc.integer({ min: 150_000, max: 350_000 }), side }),
  fc.record({ kind: fc.constant('close' as const) }),
);

describe('SimulatedVenue margin: conservation', () => {
  it('spot + margin cash + fees = start + outside flows + insurance payouts, per currency, under spot and margin trading with fees, margin moves and liquidations', () => {
    fc.assert(fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
      const f = makeMarginVenue({ m: { spot: { USDT: '5000', ETH: '2' } } });
      let mid = 250_000;
      const setBook = (ticks: number) => {
        mid = ticks;
        f.market(SYMBOL).setBook([[ticks + 50, 1_000_000]], [[ticks - 50, 1_000_000]]);
      };
      setBook(mid);
      let now = T0;
      for (const s of steps) {
        try {
          const quantity = (lots: number) => new Decimal(lots).dividedBy(10_000).toFixed();
          if (s.kind === 'spot') {
            f.venue.placeOrder('m', { symbol: SYMBOL, side: s.side, type: 'market', quantity: quantity(s.lots) });
          } else if (s.kind === 'margin') {
            const price = new Decimal(s.side === 'buy' ? mid - 100 : mid + 100).dividedBy(100).toFixed();
            f.venue.margin.placeOrder('m', s.limit
              ? { symbol: SYMBOL, side: s.side, quantity: quantity(s.lots), price, reduce_only: s.reduceOnly }
              : { symbol: SYMBOL, side: s.side, type: 'market', quantity: quantity(s.lots), reduce_only: s.reduceOnly });
          } else if (s.kind === 'fund') {
            f.venue.margin.updateAccount('m', SYMBOL, { margin_balance: String(s.amount) });
          } else if (s.kind === 'leverage') {
            f.venue.margin.setLeverage('m', SYMBOL, String(s.leverage));
          } else if (s.kind === 'move') {
            setBook(s.ticks);
            now += 1;
            f.venue.onMarketFrame(tradesFrame(SYMBOL, []), now);
          } else if (s.kind === 'print') {
            now += 1;
            f.venue.onMarketFrame(tradesFrame(SYMBOL, [{ p: new Decimal(s.ticks).dividedBy(100).toFixed(), q: '10', s: s.side }]), now);
          } else {
            f.venue.margin.closePosition('m', SYMBOL);
          }
        } catch (error) {
          if (!(error instanceof VenueRejection)) throw error;
        }
        // Unrealized PnL is not money yet: the margin account's cash is its balance less it.
        const view = f.venue.margin.account('m', SYMBOL);
        const unrealized = view.positions?.[0]?.pnl ?? new Decimal(0);
        const marginCash = (view.currencies[0]?.margin_balance ?? new Decimal(0)).minus(unrealized);
        expect(marginCash.toFixed()).toBe(f.venue.margin.cash('m', SYMBOL).toFixed());
        const spot = (currency: string) => {
          const b = f.venue.spotBalances('m').find((x) => x.currency === currency);
          return (b?.available ?? new Decimal(0)).plus(b?.reserved ?? 0);
        };
        expect(spot('USDT').plus(marginCash).plus(f.venue.feesCollected('USDT')).toFixed())
          .toBe(new Decimal(5000).plus(f.venue.outsideFlow('USDT')).plus(f.venue.futures.insurancePaid('USDT')).toFixed());
        expect(spot('ETH').plus(f.venue.feesCollected('ETH')).toFixed()).toBe(new Decimal(2).plus(f.venue.outsideFlow('ETH')).toFixed());
      }
    }), { numRuns: 200 });
  });
});
