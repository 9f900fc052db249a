import { describe, expect, it } from 'vitest';
import { checkSoak, type SoakEvidence } from '../../../bench/soak/soak-checks.js';
import { Decimal } from '../../../framework/model/decimal.js';
import type { Order } from '../../../framework/model/resources/order.js';
import type { TradeHistoryRecord } from '../../../framework/model/resources/trade-history.js';

const order = (id: string, status = 'canceled'): Order => ({ client_order_id: id, side: 'buy', status } as unknown as Order);
const trade = (id: string, clientOrderId: string, side: 'buy' | 'sell', quantity: string, price: string, fee: string): TradeHistoryRecord => ({
  id, order_id: '1', client_order_id: clientOrderId, symbol: 'BTCUSDT', side, quantity: new Decimal(quantity), price: new Decimal(price),
  fee: new Decimal(fee), timestamp: 1, taker: false,
});
const balance = (currency: string, available: string, reserved = '0') => ({ currency, available: new Decimal(available), reserved: new Decimal(reserved) });

/** A consistent run: bought 0.01 at 99.9 (fee 0.0004995), sold 0.004 at 100.1 (fee 0.0002002). */
function good(): SoakEvidence {
  return {
    openOrders: [],
    orderHistory: [order('b_1', 'filled'), order('b_2', 'partiallyFilled'), order('b_3')],
    trades: [trade('t1', 'b_1', 'buy', '0.01', '99.9', '0.0004995'), trade('t2', 'b_2', 'sell', '0.004', '100.1', '0.0002002')],
    initialBalances: { USDT: '1000', BTC: '1' },
    finalBalances: [balance('USDT', '999.4007003'), balance('BTC', '1.006')],
    journal: [
      { k: 'start', t: 1, pid: 10 },
      { k: 'order', id: 'b_1' }, { k: 'fill', id: 'b_1', trade: 't1', quantity: '0.01', price: '99.90', fee: '0.0004995' },
      { k: 'start', t: 2, pid: 11 },
      { k: 'order', id: 'b_2' }, { k: 'order', id: 'b_3' }, { k: 'fill', id: 'b_2', trade: 't2', quantity: '0.004', price: '100.1', fee: '0.0002002' },
      {
        k: 'note', event: 'stopped', positions: { BTCUSDT: '0.006' }, flows: { BTC: '0.006', USDT: '-0.5992997' },
        balances: { USDT: '999.4007003', BTC: '1.006' },
      },
    ],
    finalExit: { code: 0, signal: null },
    duplicateIdRejections: [],
  };
}

const failed = (e: SoakEvidence) => checkSoak(e).filter((c) => !c.pass).map((c) => c.name);

describe('checkSoak', () => {
  it('passes a run whose journal and final record agree with the exchange', () => {
    expect(failed(good())).toEqual([]);
  });

  it('fails a run that left an order open or did not exit 0', () => {
    expect(failed({ ...good(), openOrders: [order('b_3', 'new')] })).toEqual(['no order open on the exchange']);
    expect(failed({ ...good(), finalExit: { code: 1, signal: null } })).toEqual(['stopped with exit code 0']);
    expect(failed({ ...good(), finalExit: undefined })).toEqual(['stopped with exit code 0']);
  });

  it('fails a client_order_id seen twice on the exchange or journaled twice, not a lone 20008 answer', () => {
    const e = good();
    expect(failed({ ...e, orderHistory: [...e.orderHistory, order('b_3')] })).toEqual(['no client_order_id used twice']);
    expect(failed({ ...e, journal: [{ k: 'order', id: 'b_3' }, ...e.journal] })).toEqual(['no client_order_id used twice']);
    expect(failed({ ...e, duplicateIdRejections: ['b_2'] })).toEqual([]);
  });

  it('fails an exchange order or execution missing from the journal, or journaled with another fee', () => {
    const e = good();
    expect(failed({ ...e, journal: e.journal.filter((r) => r['id'] !== 'b_3') })).toEqual(['every exchange order in the journal']);
    const noFill = e.journal.filter((r) => r['trade'] !== 't2');
    expect(failed({ ...e, journal: noFill })).toEqual(['every execution in the journal, exactly as the exchange has it']);
    const otherFee = e.journal.map((r) => (r['trade'] === 't2' ? { ...r, fee: '0.0002003' } : r));
    expect(failed({ ...e, journal: otherFee })).toEqual(['every execution in the journal, exactly as the exchange has it']);
  });

  it('fails a position or a balance off in the last digit, and a stopped record of an earlier life', () => {
    const e = good();
    const withStopped = (fields: Record<string, unknown>) => e.journal.map((r) => (r['event'] === 'stopped' ? { ...r, ...fields } : r));
    expect(failed({ ...e, journal: withStopped({ positions: { BTCUSDT: '0.0061' } }) })).toEqual(['position equals the exchange\'s']);
    expect(failed({ ...e, journal: withStopped({ flows: { BTC: '0.006', USDT: '-0.5992996' } }) })).toEqual(['balances equal the exchange\'s']);
    expect(failed({ ...e, journal: withStopped({ balances: { USDT: '999.4007004', BTC: '1.006' } }) })).toEqual(['balances equal the exchange\'s']);
    expect(failed({ ...e, journal: [...e.journal, { k: 'start', t: 3, pid: 12 }] }))
      .toEqual(['position equals the exchange\'s', 'balances equal the exchange\'s']);
  });
});
