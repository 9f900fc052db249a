import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../framework/model/decimal.js';
import { Decimal as DecimalJs } from 'decimal.js';
import type { Side } from '../../framework/model/instrument.js';
import type { CheckedOrder } from '../../framework/risk/intent-orders.js';
import { Funds } from '../../framework/model/funds.js';
import { fundsFor, isDenial, netFundsFor } from '../../framework/risk/order-reservation.js';
import { intentKey } from '../../framework/risk/reservation-key.js';
import { config, spotInstrument, spotState } from './risk-fixtures.js';

/** `units` x 10^-scale as text. */
function text(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const body = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${body}` : body;
}

const grid = fc.record({
  priceScale: fc.integer({ min: 0, max: 6 }),
  quantityScale: fc.integer({ min: 0, max: 10 }),
  take: fc.constantFrom('0.0025', '0.001', '0', '-0.0001', '0.00075', '0.1234567'),
  make: fc.constantFrom('0.001', '0', '-0.0002', '0.0025', '0.00000001'),
});

/** Prices and quantities from tiny to beyond 2^53 units, so both the integer and the Decimal paths run. */
const magnitude = fc.oneof(fc.bigInt({ min: 1n, max: 10n ** 6n }), fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.bigInt({ min: 10n ** 15n, max: 10n ** 20n }));

/** Decimals at 200 significant digits: exact for every difference of the figures generated here. */
const ExactDecimal = DecimalJs.clone({ precision: 200, toExpNeg: -300, toExpPos: 300 });

describe('fundsFor and netFundsFor on spot limit orders', () => {
  it('property: a buy needs price x quantity x (1 + max fee rate), a sell its quantity; a replace the increase over what is held, never below zero', () => {
    fc.assert(fc.property(
      grid, magnitude, magnitude, fc.constantFrom<Side>('buy', 'sell'), fc.bigInt({ min: 0n, max: 10n ** 22n }), fc.integer({ min: 0, max: 18 }),
      ({ priceScale, quantityScale, take, make }, priceUnits, quantityUnits, side, heldUnits, heldScale) => {
        const instrument = spotInstrument({ tick_size: text(1n, priceScale), quantity_increment: text(1n, quantityScale), take_rate: take, make_rate: make });
        const state = spotState();
        state.instruments.set(instrument.symbol, instrument);
        const price = new Decimal(text(priceUnits, priceScale));
        const quantity = new Decimal(text(quantityUnits, quantityScale));
        const order: CheckedOrder = { symbol: 'ETHUSDT', side, type: 'limit', quantity, price, key: intentKey('new') };
        // Oracle: the documented rule in Decimals, computed here.
        const maxRate = Decimal.max(new Decimal(take), new Decimal(make), 0);
        const expected = side === 'buy' ? price.times(quantity).times(new Decimal(1).plus(maxRate)) : quantity;
        const currency = side === 'buy' ? 'USDT' : 'ETH';

        const need = fundsFor(order, instrument, state, config());
        if (isDenial(need)) throw new Error(need.reason);
        expect(need.amount.toFixed()).toBe(expected.toFixed());
        expect(need.currency).toBe(currency);

        const held = new Decimal(text(heldUnits, heldScale));
        state.ledger.setBalance(currency, held.plus(1));
        expect(state.ledger.reserve(intentKey('old'), currency, Funds.of(held, currency, 'held'), new Decimal(1))).toBe(true);
        const replace: CheckedOrder = {
          ...order, key: intentKey('r'),
          replaces: { clientOrderId: 'c', symbol: 'ETHUSDT', side, type: 'limit', quantity, quantityCumulative: new Decimal(0), price, reservationKey: intentKey('old') },
        };
        // The increase is exact (funds are integer units): the oracle subtracts at a precision no figure here reaches.
        const increase = new ExactDecimal(expected.toFixed()).minus(held.toFixed());
        const net = netFundsFor(replace, instrument, state, config());
        if (isDenial(net)) throw new Error(net.reason);
        expect(net.amount.toFixed()).toBe(increase.isPositive() && !increase.isZero() ? increase.toFixed() : '0');
        expect(net).toMatchObject({ currency, quantity, marketBuy: false });
      },
    ), { numRuns: 1500 });
  });
});
