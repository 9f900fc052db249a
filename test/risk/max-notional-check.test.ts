import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../framework/model/decimal.js';
import { maxNotionalCheck } from '../../framework/risk/max-notional-check.js';
import { config, place, spotInstrument, spotState } from './risk-fixtures.js';

describe('maxNotionalCheck', () => {
  const state = spotState();
  const cfg = config({ symbolLimits: { ETHUSDT: { maxOrderNotional: '4000' } } });

  it('passes exactly at the limit and denies above', () => {
    expect(maxNotionalCheck(place({ side: 'buy', quantity: '2', price: '2000' }), state, cfg)).toBeUndefined();
    expect(maxNotionalCheck(place({ side: 'buy', quantity: '2', price: '2000.01' }), state, cfg))
      .toEqual({ check: 'max-notional', reason: 'ETHUSDT: notional 4000.02 exceeds max order notional 4000' });
  });

  it('values market orders at the touch and falls back to the default limits', () => {
    // best ask 2000.10 x 2 = 4000.2
    expect(maxNotionalCheck(place({ side: 'buy', type: 'market', quantity: '2' }), state, cfg)?.reason).toMatch(/4000.2 exceeds/);
    // best bid 2000.00 x 2 = 4000
    expect(maxNotionalCheck(place({ side: 'sell', type: 'market', quantity: '2' }), state, cfg)).toBeUndefined();
    expect(maxNotionalCheck(place({ side: 'buy', quantity: '100', price: '2000' }), state, config())).toBeUndefined();
    expect(maxNotionalCheck(place({ side: 'buy', quantity: '1', price: '2000' }), state, config({ defaultLimits: { maxOrderNotional: '1999.99' } }))?.check).toBe('max-notional');
  });

  it('property: agrees with a Decimal oracle at any price and quantity scale, near and beyond 2^53 units', () => {
    const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
    const units = fc.oneof(fc.bigInt({ min: 1n, max: 10n ** 6n }), fc.bigInt({ min: 10n ** 7n, max: 10n ** 8n }), fc.bigInt({ min: 1n, max: 10n ** 18n }));
    const text = (n: bigint, scale: number): string => {
      const digits = n.toString().padStart(scale + 1, '0');
      return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
    };
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 8 }), units, units, fc.oneof(fc.bigInt({ min: 1n, max: MAX_SAFE + 10n }), fc.bigInt({ min: 1n, max: 10n ** 30n })), fc.integer({ min: 0, max: 3 }),
      (priceScale, quantityScale, priceUnits, quantityUnits, maxUnits, extra) => {
        const state = spotState();
        state.instruments.set('ETHUSDT', spotInstrument({ tick_size: text(1n, priceScale), quantity_increment: text(1n, quantityScale) }));
        const price = text(priceUnits, priceScale + (extra === 1 ? 1 : 0));
        const quantity = text(quantityUnits, quantityScale);
        const max = new Decimal(text(maxUnits, priceScale + quantityScale + (extra === 2 ? 1 : 0)));
        // Oracle: the notional in Decimals.
        const notional = new Decimal(price).times(quantity);
        const verdict = maxNotionalCheck(place({ side: 'buy', quantity, price }), state, config({ defaultLimits: { maxOrderNotional: max.toFixed() } }));
        expect(verdict?.reason).toBe(notional.greaterThan(max) ? `ETHUSDT: notional ${notional.toFixed()} exceeds max order notional ${max.toFixed()}` : undefined);
      },
    ), { numRuns: 1500 });
  });
});
