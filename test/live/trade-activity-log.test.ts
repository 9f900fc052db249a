import { describe, expect, it } from 'vitest';
import type { OrderFill, TrackedOrderInfo } from '../../framework/execution/order-tracker.js';
import { TradeActivityLog } from '../../framework/live/trade-activity-log.js';
import { Decimal } from '../../framework/model/decimal.js';
import type { PlaceIntent } from '../../framework/model/intent.js';

function recorder() {
  const lines: string[] = [];
  return { lines, logger: { log: (level: string, message: string, fields?: Readonly<Record<string, unknown>>) => void lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`) } };
}

const place: PlaceIntent = { kind: 'place', intentId: 's-1', strategyId: 's', symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: new Decimal('0.01'), price: new Decimal('99.5') };
const info: TrackedOrderInfo = { clientOrderId: 'b_1', intentId: 's-1', strategyId: 's', symbol: 'BTCUSDT', side: 'buy', quantity: new Decimal('0.01') };
const fill = (id: string, quantity: string, fee: string): OrderFill => ({ tradeId: id, quantity: new Decimal(quantity), price: new Decimal('99.5'), fee: new Decimal(fee), taker: false, time: 1 });

describe('TradeActivityLog', () => {
  it('logs one info line per order and per fill, counts them and sums fees exactly, and passes every event on', () => {
    const { lines, logger } = recorder();
    const seen: string[] = [];
    const log = new TradeActivityLog(logger, {
      onVerdict: () => seen.push('verdict'), onTrack: () => seen.push('track'), onFill: () => seen.push('fill'),
    });
    log.onVerdict({ kind: 'passed', intent: place });
    log.onTrack(info);
    log.onFill(info, fill('t1', '0.004', '0.1'));
    log.onFill(info, fill('t2', '0.006', '0.2'));
    expect(lines).toEqual([
      'info order buy 0.01 BTCUSDT limit @ 99.5 {"id":"b_1","intent":"s-1"}',
      'info fill buy 0.004 BTCUSDT @ 99.5 fee 0.1 maker {"id":"b_1","trade":"t1"}',
      'info fill buy 0.006 BTCUSDT @ 99.5 fee 0.2 maker {"id":"b_1","trade":"t2"}',
    ]);
    expect(seen).toEqual(['verdict', 'track', 'fill', 'fill']);
    const { orders, fills, feesBySymbol } = log.activity;
    expect([orders, fills]).toEqual([1, 2]);
    // 0.1 + 0.2 in binary floating point is 0.30000000000000004.
    expect(feesBySymbol.get('BTCUSDT')?.toFixed()).toBe('0.3');
  });

  it('describes an order whose intent it never saw (adopted at reconciliation) without a price', () => {
    const { lines, logger } = recorder();
    new TradeActivityLog(logger).onTrack({ ...info, intentId: undefined, replaces: 'b_0' });
    expect(lines).toEqual(['info order buy 0.01 BTCUSDT replacing b_0 {"id":"b_1"}']);
  });
});
