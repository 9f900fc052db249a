import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { effectiveRates } from '../../../backtest/venue/fees.js';
import { toOrder, toReport, type OrderRecord } from '../../../backtest/venue/order-state.js';
import { Decimal } from '../../../framework/model/decimal.js';
import type { OrderTrade } from '../../../framework/model/resources/order.js';
import { BTCUSDT, ETHUSDT, T0 } from './support/venue-fixture.js';

const record = fc.record({
  instrument: fc.constantFrom(ETHUSDT, BTCUSDT),
  status: fc.constantFrom('none', 'new', 'partiallyFilled', 'filled', 'canceled', 'expired', 'suspended') as fc.Arbitrary<OrderRecord['status']>,
  type: fc.constantFrom('limit', 'market', 'stopLimit', 'stopMarket') as fc.Arbitrary<OrderRecord['type']>,
  timeInForce: fc.constantFrom('GTC', 'IOC', 'GTD') as fc.Arbitrary<OrderRecord['timeInForce']>,
  quantityLots: fc.integer({ min: 1, max: 1_000_000 }),
  cumulativeLots: fc.integer({ min: 0, max: 1_000_000 }),
  priceTicks: fc.option(fc.integer({ min: 1, max: 10_000_000 }), { nil: undefined }),
  stopTicks: fc.option(fc.integer({ min: 1, max: 10_000_000 }), { nil: undefined }),
  inactive: fc.boolean(),
  originalClientOrderId: fc.option(fc.constant('old-1'), { nil: undefined }),
  orderListId: fc.option(fc.constant('L1'), { nil: undefined }),
}).map((r): OrderRecord => ({
  ...r,
  key: 7, id: '42', account: 'a', clientOrderId: 'c-1', side: 'buy', expireTime: T0 + 1000, postOnly: true,
  rates: effectiveRates(r.instrument.info), triggered: false, resting: false, createdAt: T0, updatedAt: T0 + 5,
  reserveGroup: 'order:7', trades: [], notional: new Decimal(0), reduceOnly: false, liquidation: false, margin: false,
}));

const trade: OrderTrade = { id: '9', quantity: new Decimal('0.5'), price: new Decimal('2500'), fee: new Decimal('1.25'), taker: true, timestamp: T0 };

describe('toReport', () => {
  it('is the Order of the record without trades and price_average, keys in the same order, plus the report fields', () => {
    fc.assert(fc.property(record, fc.boolean(), (r, withTrade) => {
      const { trades: _trades, price_average: _average, ...fields } = toOrder(r);
      const expected = withTrade
        ? { ...fields, report_type: 'trade', trade_id: '9', trade_quantity: trade.quantity, trade_price: trade.price, trade_fee: trade.fee, trade_taker: true, trade_position_id: undefined }
        : { ...fields, report_type: 'replaced' };
      const report = withTrade ? toReport(r, 'trade', trade) : toReport(r, 'replaced');
      expect(report).toEqual(expected);
      expect(Object.keys(report)).toEqual(Object.keys(expected));
    }));
  });
});
