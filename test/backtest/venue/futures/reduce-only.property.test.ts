import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../../framework/model/decimal.js';
import { VenueRejection } from '../../../../backtest/venue/venue-types.js';
import { T0, tradesFrame } from '../support/venue-fixture.js';
import { makeFuturesVenue } from '../support/futures-fixture.js';

const SYMBOL = 'ETHUSDT_PERP';

const action = fc.oneof(
  fc.record({ kind: fc.constant('market' as const), side: fc.constantFrom('buy' as const, 'sell' as const), lots: fc.integer({ min: 1, max: 3_000 }), reduceOnly: fc.boolean() }),
  fc.record({ kind: fc.constant('limit' as const), side: fc.constantFrom('buy' as const, 'sell' as const), lots: fc.integer({ min: 1, max: 3_000 }), reduceOnly: fc.boolean(), offset: fc.integer({ min: 1, max: 20 }) }),
  fc.record({ kind: fc.constant('print' as const), side: fc.constantFrom('buy' as const, 'sell' as const), offset: fc.integer({ min: 0, max: 25 }), lots: fc.integer({ min: 1, max: 10_000 }) }),
);

describe('SimulatedVenue futures: reduce-only property', () => {
  it('a reduce-only execution never grows nor flips the position, and the position is the signed sum of executions', () => {
    fc.assert(fc.property(fc.array(action, { maxLength: 30 }), (actions) => {
      const f = makeFuturesVenue({ f: { futures: { USDT: '100000000' } } });
      f.market(SYMBOL).setBook([[250000, 1_000_000]], [[249900, 1_000_000]]);
      const reduceOnly = new Set<string>();
      let signed = 0;
      let n = 0;
      const check = (): void => {
        for (const e of f.events.splice(0)) {
          if (e.kind !== 'order' || e.report.report_type !== 'trade') continue;
          const lots = Number(e.report.trade_quantity?.times(1000).toFixed());
          const next = signed + (e.report.side === 'buy' ? lots : -lots);
          if (reduceOnly.has(e.report.client_order_id)) {
            expect(Math.abs(next)).toBeLessThan(Math.abs(signed));
            expect(next === 0 || Math.sign(next) === Math.sign(signed)).toBe(true);
          }
          signed = next;
        }
        const position = f.venue.futures.account('f', SYMBOL).positions?.[0];
        expect(position === undefined ? 0 : Number(position.quantity.times(1000).toFixed())).toBe(signed);
      };
      for (const a of actions) {
        const id = `o${++n}`;
        try {
          if (a.kind === 'print') {
            const ticks = a.side === 'buy' ? 250000 + a.offset * 100 : 249900 - a.offset * 100;
            f.venue.onMarketFrame(tradesFrame(SYMBOL, [{ p: new Decimal(ticks).dividedBy(100).toFixed(), q: new Decimal(a.lots).dividedBy(1000).toFixed(), s: a.side }]), T0 + n);
          } else {
            if (a.reduceOnly) reduceOnly.add(id);
            const price = a.kind === 'limit' ? new Decimal(a.side === 'buy' ? 249900 - a.offset * 100 : 250000 + a.offset * 100).dividedBy(100).toFixed() : undefined;
            f.venue.placeOrder('f', {
              client_order_id: id, symbol: SYMBOL, side: a.side, type: a.kind, quantity: new Decimal(a.lots).dividedBy(1000).toFixed(), price, reduce_only: a.reduceOnly,
            });
          }
        } catch (error) {
          if (!(error instanceof VenueRejection) || error.code !== 20044) throw error;
        }
        check();
      }
    }));
  });
});
