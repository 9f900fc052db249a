import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toLots, toTicks, validateNewOrder, type ValidationContext } from '../../../backtest/venue/order-validation.js';
import { Decimal, isDecimalString } from '../../../framework/model/decimal.js';
import { Instrument } from '../../../framework/model/instrument.js';
import { parseSymbolInfo } from '../../../framework/model/resources/symbol.js';
import { VenueRejection, type NewOrderRequest } from '../../../backtest/venue/venue-types.js';
import { BTCUSDT, ETHUSDT, HALTED, makeVenue, T0 } from './support/venue-fixture.js';

const ctx: ValidationContext = {
  instruments: new Map([[ETHUSDT.symbol, ETHUSDT], [BTCUSDT.symbol, BTCUSDT], [HALTED.symbol, HALTED]]),
  exchangeOpen: true,
  now: T0,
};

function refused(request: Partial<NewOrderRequest>, context = ctx): { code: number; description: string } {
  try {
    validateNewOrder({ symbol: 'ETHUSDT', side: 'buy', quantity: '1', price: '2500', ...request } as NewOrderRequest, context);
  } catch (e) {
    if (e instanceof VenueRejection) return { code: e.code, description: e.description };
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('validateNewOrder', () => {
  it('refuses unknown symbols (2001), halted symbols (20044) and a closed exchange (20010)', () => {
    expect(refused({ symbol: 'NOPE' }).code).toBe(2001);
    expect(refused({ symbol: 'HALTUSDT', price: '1' }).code).toBe(20044);
    expect(refused({}, { ...ctx, exchangeOpen: false }).code).toBe(20010);
  });

  it.each([
    [{ type: 'limit', price: undefined }, 'price'],
    [{ type: 'stopLimit', stop_price: '2500', price: undefined }, 'price'],
    [{ type: 'takeProfitLimit', stop_price: '2500', price: undefined }, 'price'],
    [{ type: 'stopLimit' }, 'stop_price'],
    [{ type: 'stopMarket' }, 'stop_price'],
    [{ type: 'takeProfitMarket' }, 'stop_price'],
    [{ type: 'takeProfitLimit' }, 'stop_price'],
    [{ time_in_force: 'GTD' }, 'expire_time'],
    [{ time_in_force: 'GTD', expire_time: T0 }, 'expire_time'],
    [{ reduce_only: true }, 'reduce_only'],
    [{ side: 'long' }, 'side'],
    [{ type: 'iceberg' }, 'type'],
    [{ time_in_force: 'GTX' }, 'time_in_force'],
    [{ take_rate: 'abc' }, 'take_rate'],
    [{ quantity: undefined }, 'quantity'],
  ] as const)('%j is 10001 naming %s', (request, field) => {
    const r = refused(request as Partial<NewOrderRequest>);
    expect(r.code).toBe(10001);
    expect(r.description).toContain(field);
  });

  it('strict_validate refuses off-grid price (2022) and quantity (2012)', () => {
    expect(refused({ price: '2500.005', strict_validate: true })).toMatchObject({ code: 2022 });
    expect(refused({ quantity: '0.00015', strict_validate: true })).toMatchObject({ code: 2012 });
    expect(refused({ type: 'stopLimit', stop_price: '1.001', strict_validate: true }).description).toContain('stop_price');
  });

  it('without strict_validate rounds half down to the grid; rounding to zero is 2011', () => {
    const v = validateNewOrder({ symbol: 'ETHUSDT', side: 'buy', quantity: '0.00015', price: '2500.005' }, ctx);
    expect(ETHUSDT.ticksToPrice(v.priceTicks as number)).toBe('2500.00');
    expect(ETHUSDT.lotsToQuantity(v.quantityLots)).toBe('0.0001');
    expect(refused({ quantity: '0.00005' }).code).toBe(2011);
    expect(refused({ quantity: '0' }).code).toBe(2011);
    expect(refused({ quantity: 'x1' }).code).toBe(2010);
    expect(refused({ price: '-1' }).code).toBe(2022);
    expect(refused({ price: '1e3' }).code).toBe(2020);
  });

  it('defaults to a GTC limit and keeps the higher fee rates', () => {
    const v = validateNewOrder({ symbol: 'ETHUSDT', side: 'sell', quantity: '1', price: '1', take_rate: '0.01', make_rate: '0' }, ctx);
    expect(v).toMatchObject({ type: 'limit', timeInForce: 'GTC', postOnly: false });
    expect(v.rates.take.toFixed()).toBe('0.01');
    expect(v.rates.make.toFixed()).toBe('0.001');
  });

  it('property: any on-grid price and quantity pass strict validation unchanged', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 1, max: 10_000_000 }), (ticks, lots) => {
        const v = validateNewOrder(
          { symbol: 'ETHUSDT', side: 'buy', quantity: ETHUSDT.lotsToQuantity(lots), price: ETHUSDT.ticksToPrice(ticks), strict_validate: true },
          ctx,
        );
        expect(v.priceTicks).toBe(ticks);
        expect(v.quantityLots).toBe(lots);
      }),
    );
  });

  it('a refused order leaves no trace on the venue', () => {
    const f = makeVenue();
    expect(() => f.venue.placeOrder('a', { symbol: 'ETHUSDT', side: 'buy', quantity: '1', price: '1.001', strict_validate: true })).toThrow(VenueRejection);
    expect(f.events).toEqual([]);
    expect(f.venue.openOrders('a')).toEqual([]);
  });
});

describe('toTicks and toLots', () => {
  const FIVES = new Instrument('FIVEUSDT', parseSymbolInfo({
    type: 'spot', base_currency: 'FIVE', quote_currency: 'USDT', quantity_increment: '0.5', tick_size: '0.05',
    take_rate: '0.001', make_rate: '0.001', fee_currency: 'USDT',
  }));

  /** The Decimal route every text used to take: validate, round half down unless strict, convert. */
  function reference(text: string, strict: boolean, step: Decimal): number | string {
    if (!isDecimalString(text)) return 'not a number';
    let value = new Decimal(text);
    if (!value.isPositive() || value.isZero()) return 'not positive';
    if (!value.mod(step).isZero()) {
      if (strict) return 'off grid';
      value = value.dividedBy(step).toDecimalPlaces(0, Decimal.ROUND_HALF_DOWN).times(step);
      if (value.isZero()) return 'rounds to zero';
    }
    const units = value.dividedBy(step);
    return units.lessThanOrEqualTo(Number.MAX_SAFE_INTEGER) ? units.toNumber() : 'out of range';
  }

  function outcome(convert: () => number): number | string {
    try {
      return convert();
    } catch (e) {
      if (!(e instanceof VenueRejection)) throw e;
      return e.description.includes('not a number') ? 'not a number'
        : e.description.includes('greater than zero') ? 'not positive'
          : e.description.includes('not a multiple') ? 'off grid'
            : e.description.includes('rounds to zero') ? 'rounds to zero' : 'out of range';
    }
  }

  const text = fc.tuple(
    fc.constantFrom('', '-', '+', ' '),
    fc.stringMatching(/^[0-9]{0,6}$/),
    fc.constantFrom('', '.'),
    fc.stringMatching(/^[0-9]{0,6}$/),
    fc.constantFrom('', '', '', 'x', '0'),
  ).map((parts) => parts.join(''));

  it('convert every text as the Decimal route does (result or refusal)', () => {
    fc.assert(fc.property(fc.constantFrom(ETHUSDT, BTCUSDT, FIVES), text, fc.boolean(), (instrument, t, strict) => {
      expect(outcome(() => toTicks(instrument, t, 'price', strict)))
        .toEqual(reference(t, strict, instrument.tickSize));
      expect(outcome(() => toLots(instrument, t, strict)))
        .toEqual(reference(t, strict, instrument.quantityIncrement));
    }), { numRuns: 2000 });
  });

  it('rejects a price or quantity beyond 2^53 - 1 ticks or lots as the exchange does (2022 / 2012), never a rounded count', () => {
    const rejection = (convert: () => number): { code: number; description: string } | number => {
      try {
        return convert();
      } catch (e) {
        if (!(e instanceof VenueRejection)) throw e;
        return { code: e.code, description: e.description };
      }
    };
    // BTCUSDT: quantity increment 0.00001, tick 0.1. 2^53 - 1 lots is 90071992547.40991.
    expect(rejection(() => toLots(BTCUSDT, '90071992547.40991', true))).toBe(Number.MAX_SAFE_INTEGER);
    expect(rejection(() => toLots(BTCUSDT, '90071992547.40992', true))).toMatchObject({ code: 2012, description: expect.stringMatching(/quantity 90071992547.40992 is out of range/) });
    expect(rejection(() => toTicks(BTCUSDT, '900719925474099.2', 'price', true))).toMatchObject({ code: 2022, description: expect.stringMatching(/price .* is out of range/) });
    expect(rejection(() => toLots(BTCUSDT, '90071992547.409925', false))).toMatchObject({ code: 2012 });
  });
});
