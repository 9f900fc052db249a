import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../../framework/model/decimal.js';
import { VenueRejection } from '../../../../backtest/venue/venue-types.js';
import { T0 } from '../support/venue-fixture.js';
import { makeFuturesVenue } from '../support/futures-fixture.js';

const SYMBOL = 'ETHUSDT_PERP';
const HOUR = 3_600_000;

const step = fc.oneof(
  fc.record({ kind: fc.constant('trade' as const), side: fc.constantFrom('buy' as const, 'sell' as const), lots: fc.integer({ min: 1, max: 2_000 }), reduceOnly: fc.boolean() }),
  fc.record({ kind: fc.constant('mark' as const), ticks: fc.integer({ min: 200_000, max: 300_000 }) }),
  fc.record({ kind: fc.constant('margin' as const), amount: fc.integer({ min: 0, max: 3_000 }) }),
  fc.record({ kind: fc.constant('leverage' as const), leverage: fc.integer({ min: 1, max: 50 }) }),
  fc.record({ kind: fc.constant('time' as const), hours: fc.integer({ min: 1, max: 10 }) }),
);

describe('SimulatedVenue futures: conservation', () => {
  it('spot + futures cash + fees = start + outside flows + insurance payouts, under trades, marks, margin moves and funding', () => {
    fc.assert(fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
      const f = makeFuturesVenue({ f: { futures: { USDT: '1000' }, spot: { USDT: '2000' } } }, { defaultFundingRate: '0.001' });
      f.market(SYMBOL).setBook([[250000, 1_000_000]], [[249900, 1_000_000]]);
      let now = T0;
      for (const s of steps) {
        try {
          if (s.kind === 'trade') {
            f.venue.placeOrder('f', { symbol: SYMBOL, side: s.side, type: 'market', quantity: new Decimal(s.lots).dividedBy(1000).toFixed(), reduce_only: s.reduceOnly });
          } else if (s.kind === 'mark') {
            now += 1;
            const mark = new Decimal(s.ticks).dividedBy(100).toFixed();
            f.venue.futures.applyFuturesInfo({ [SYMBOL]: { contract_type: 'perpetual', mark_price: mark, index_price: mark, open_interest: '1', timestamp: new Date(now).toISOString() } }, now);
          } else if (s.kind === 'margin') {
            f.venue.futures.updateAccount('f', SYMBOL, { margin_balance: String(s.amount) });
          } else if (s.kind === 'leverage') {
            f.venue.futures.setLeverage('f', SYMBOL, String(s.leverage));
          } else {
            now += s.hours * HOUR;
            f.venue.advanceTo(now);
          }
        } catch (error) {
          if (!(error instanceof VenueRejection)) throw error;
        }
        // Unrealized PnL is not money yet: compare cash (margin balance less unrealized).
        const view = f.venue.futures.account('f', SYMBOL);
        const unrealized = view.positions?.[0]?.pnl ?? new Decimal(0);
        const futuresCash = (view.currencies[0]?.margin_balance ?? new Decimal(0)).minus(unrealized);
        const spot = f.venue.spotBalances('f').find((b) => b.currency === 'USDT');
        const held = futuresCash.plus(spot?.available ?? 0).plus(spot?.reserved ?? 0).plus(f.venue.feesCollected('USDT'));
        expect(held.toFixed()).toBe(new Decimal(3000).plus(f.venue.outsideFlow('USDT')).plus(f.venue.futures.insurancePaid('USDT')).toFixed());
      }
    }));
  });
});
