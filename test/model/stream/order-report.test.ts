import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, ORDER_TYPES, SIDES, TIME_IN_FORCES } from '../../../framework/model/resources/order.js';
import {
  REPORT_TYPES, orderReportToWire, parseOrderReport, parseOrderReportNotification, type OrderReport,
} from '../../../framework/model/stream/order-report.js';
import { compact, decimal, id, positiveDecimal, timeMs } from '../resources/arbitraries.js';

const tradeReport = {
  id: 584244931496, client_order_id: 'b5acd79c0a854b01b558665bcf379456', symbol: 'BTCUSDT', side: 'buy', status: 'partiallyFilled',
  type: 'limit', time_in_force: 'GTC', quantity: '0.01000', quantity_cumulative: '0.00100', price: '0.01', post_only: false,
  created_at: '2021-07-02T22:52:32.864Z', updated_at: '2021-07-02T22:52:33.101Z', report_type: 'trade', trade_id: 1361977606,
  trade_quantity: '0.00100', trade_price: '0.01', trade_fee: '-0.000001', trade_taker: false,
};

describe('parseOrderReport', () => {
  it('reads the order and the trade fields', () => {
    const r = parseOrderReport(tradeReport);
    expect(r.id).toBe('584244931496');
    expect(r.report_type).toBe('trade');
    expect(r.trade_id).toBe('1361977606');
    expect(r.trade_fee?.toFixed()).toBe('-0.000001');
    expect(r.trade_taker).toBe(false);
    expect(r.updated_at).toBe(Date.UTC(2021, 6, 2, 22, 52, 33, 101));
  });

  it('marks a forced close only: liquidation true is kept, false and absent leave no key', () => {
    expect(parseOrderReport({ ...tradeReport, liquidation: true }).liquidation).toBe(true);
    expect('liquidation' in parseOrderReport({ ...tradeReport, liquidation: false })).toBe(false);
    expect('liquidation' in parseOrderReport(tradeReport)).toBe(false);
    expect(() => parseOrderReport({ ...tradeReport, liquidation: 'yes' })).toThrow(/report\.liquidation/);
  });

  it('names the failing field', () => {
    expect(() => parseOrderReport({ ...tradeReport, report_type: 'fill' })).toThrow(/report\.report_type: must be one of/);
    expect(() => parseOrderReport({ ...tradeReport, trade_price: 'x' })).toThrow(/report\.trade_price/);
  });

  it('round-trips through its wire form', () => {
    const arb: fc.Arbitrary<OrderReport> = fc
      .record({
        id: id(), client_order_id: fc.stringMatching(/^[a-z0-9]{1,32}$/), symbol: fc.constant('BTCUSDT'), side: fc.constantFrom(...SIDES),
        status: fc.constantFrom(...ORDER_STATUSES), type: fc.constantFrom(...ORDER_TYPES), time_in_force: fc.constantFrom(...TIME_IN_FORCES),
        quantity: positiveDecimal(), quantity_cumulative: decimal(), price: fc.option(positiveDecimal(), { nil: undefined }),
        post_only: fc.boolean(), reduce_only: fc.option(fc.boolean(), { nil: undefined }), created_at: timeMs(), updated_at: timeMs(),
        report_type: fc.constantFrom(...REPORT_TYPES), trade_id: fc.option(id(), { nil: undefined }),
        trade_quantity: fc.option(positiveDecimal(), { nil: undefined }), trade_price: fc.option(positiveDecimal(), { nil: undefined }),
        trade_fee: fc.option(decimal({ negative: true }), { nil: undefined }), trade_taker: fc.option(fc.boolean(), { nil: undefined }),
        trade_position_id: fc.option(id(), { nil: undefined }), liquidation: fc.option(fc.constant(true), { nil: undefined }),
      })
      .map(compact);
    fc.assert(
      fc.property(arb, (r) => {
        expect(parseOrderReport(JSON.parse(JSON.stringify(orderReportToWire(r))))).toEqual(r);
      }),
    );
  });
});

describe('parseOrderReportNotification', () => {
  it('reads a single change and a snapshot for every account', () => {
    const one = parseOrderReportNotification({ jsonrpc: '2.0', method: 'spot_order', params: tradeReport }, 1625266353200);
    expect(one).toMatchObject({ kind: 'orderReports', account: 'spot', snapshot: false, receivedAt: 1625266353200 });
    expect(one?.exchangeTime).toBe(Date.UTC(2021, 6, 2, 22, 52, 33, 101));
    const snap = parseOrderReportNotification({
      method: 'futures_orders',
      params: [{ ...tradeReport, report_type: 'status' }, { ...tradeReport, report_type: 'status', updated_at: '2021-07-03T00:00:00.000Z' }],
    }, 5);
    expect(snap?.account).toBe('futures');
    expect(snap?.snapshot).toBe(true);
    expect(snap?.reports).toHaveLength(2);
    expect(snap?.exchangeTime).toBe(Date.UTC(2021, 6, 3));
    const empty = parseOrderReportNotification({ method: 'margin_orders', params: [] }, 7);
    expect(empty?.exchangeTime).toBe(7);
  });

  it('returns null for frames that are not order notifications', () => {
    expect(parseOrderReportNotification({ result: tradeReport, id: 3 }, 1)).toBeNull();
    expect(parseOrderReportNotification({ method: 'spot_balance', params: [] }, 1)).toBeNull();
    expect(parseOrderReportNotification({ method: 'spot_new_order', params: {} }, 1)).toBeNull();
  });

  it('names the failing field of a malformed notification', () => {
    expect(() => parseOrderReportNotification({ method: 'spot_orders', params: [tradeReport, { ...tradeReport, side: 'up' }] }, 1))
      .toThrow(/params\[1\]\.side/);
    expect(() => parseOrderReportNotification({ method: 'spot_order' }, 1)).toThrow(/params: is required/);
    expect(() => parseOrderReportNotification({ method: 'spot_orders', params: tradeReport }, 1)).toThrow(/params: must be an array/);
  });
});
