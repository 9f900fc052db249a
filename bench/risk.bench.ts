import { Bench } from 'tinybench';
import { OrderBook } from '../framework/exchange/book/order-book.js';
import { Decimal } from '../framework/model/decimal.js';
import { Instrument } from '../framework/model/instrument.js';
import type { Intent, PlaceIntent, ReplaceIntent } from '../framework/model/intent.js';
import { parseSymbolInfo } from '../framework/model/resources/symbol.js';
import { Funds } from '../framework/model/funds.js';
import { OrderRateWindow } from '../framework/risk/order-rate-window.js';
import { RiskGate } from '../framework/risk/risk-gate.js';
import { RiskState } from '../framework/risk/risk-state.js';
import { ReservationLedger } from '../framework/risk/reservation-ledger.js';
import { intentKey } from '../framework/risk/reservation-key.js';
import { printTable, type Row } from './support/report.js';

/**
 * Risk gate throughput: evaluations per second of
 * (a) a limit place intent with every check on (kill switch with equity figures, order rate,
 *     status, grid, price band, max notional, max position with open orders, futures risk limit,
 *     market-buy reserve, balance);
 * (b) a market maker's quote move: a replace of an open limit buy with the default checks (what
 *     the tick-to-intent benchmark's bot sends), alternating between two prices;
 * each with the ledger reservation of the pass, released again after each call so every
 * evaluation passes the same way. The clock advances 11 ms per call, under the rate budget.
 */
export async function run(): Promise<void> {
  const rows: Row[] = [];
  {
    const { state, ledger } = riskState();
    state.positionsBySymbol.set('ETHUSDT', new Decimal('2.5'));
    state.equity = { current: new Decimal('99000'), peak: new Decimal('100000'), dayStart: new Decimal('99500') };
    for (let i = 0; i < 5; i++) {
      state.orders.set(`o${i}`, {
        clientOrderId: `o${i}`, symbol: 'ETHUSDT', side: 'buy', type: 'limit',
        quantity: new Decimal('0.5'), quantityCumulative: new Decimal('0'), price: new Decimal((1995 - i).toFixed(2)),
      });
    }
    const gate = new RiskGate({
      defaultLimits: { maxOrderNotional: '10000', maxPosition: '20' },
      killSwitch: { maxDrawdown: '0.2', maxDailyLoss: '5000', flatten: true },
    }, ledger, state.rateWindow);
    const intent: PlaceIntent = {
      kind: 'place', intentId: 'bench', strategyId: 'bench', symbol: 'ETHUSDT', side: 'buy', type: 'limit',
      quantity: new Decimal('0.25'), price: new Decimal('1999.50'),
    };
    rows.push(await measure('gate.evaluate(limit place), all checks', gate, state, ledger, () => intent));
  }
  {
    const { state, ledger } = riskState();
    const quantity = new Decimal('0.05');
    const quote = intentKey('quote');
    state.orders.set('q1', {
      clientOrderId: 'q1', symbol: 'ETHUSDT', side: 'buy', type: 'limit', quantity, quantityCumulative: new Decimal('0'),
      price: new Decimal('1999.00'), reservationKey: quote,
    });
    if (!ledger.reserve(quote, 'USDT', Funds.of(new Decimal('99.9999'), 'USDT', 'amount'), quantity)) throw new Error('cannot reserve the quote');
    const gate = new RiskGate({ maxOrdersPerWindow: 250 }, ledger, state.rateWindow);
    const moves: ReplaceIntent[] = ['1999.50', '1999.40'].map((price) => ({
      kind: 'replace', intentId: 'bench', strategyId: 'bench', clientOrderId: 'q1', newClientOrderId: 'q2', quantity, price: new Decimal(price),
    }));
    let n = 0;
    rows.push(await measure('gate.evaluate(replace), default checks', gate, state, ledger, () => moves[n++ & 1]!));
  }
  printTable('risk gate', rows);
}

/** A spot ETHUSDT state: 50 levels a side around 2000.05, 1 000 000 USDT and 100 ETH. */
function riskState(): { state: RiskState; ledger: ReservationLedger } {
  const instrument = new Instrument('ETHUSDT', parseSymbolInfo({
    type: 'spot', base_currency: 'ETH', quote_currency: 'USDT', quantity_increment: '0.0001', tick_size: '0.01',
    take_rate: '0.0025', make_rate: '0.001', fee_currency: 'USDT',
  }));
  const book = new OrderBook('ETHUSDT', { instrument });
  const asks: [string, string][] = [];
  const bids: [string, string][] = [];
  for (let i = 0; i < 50; i++) {
    asks.push([(2000.1 + i / 100).toFixed(2), '1.5']);
    bids.push([(2000 - i / 100).toFixed(2), '1.5']);
  }
  book.apply({ symbol: 'ETHUSDT', sequence: 1, exchangeTime: 0, receivedAt: 0, snapshot: true, asks, bids });
  const ledger = new ReservationLedger();
  ledger.setBalance('USDT', new Decimal('1000000'));
  ledger.setBalance('ETH', new Decimal('100'));
  const state = new RiskState(ledger, new OrderRateWindow());
  state.instruments.set('ETHUSDT', instrument);
  state.books.set('ETHUSDT', book);
  return { state, ledger };
}

async function measure(name: string, gate: RiskGate, state: RiskState, ledger: ReservationLedger, next: () => Intent): Promise<Row> {
  let passed = 0;
  let denied = 0;
  const bench = new Bench({ time: 2000, warmupTime: 300 });
  bench.add(name, () => {
    state.now += 11;
    const result = gate.evaluate(next(), state);
    if (result.kind === 'passed') {
      passed++;
      ledger.release(intentKey('bench'));
    } else {
      denied++;
    }
  });
  await bench.run();
  if (denied !== 0) throw new Error(`${name}: ${denied} evaluations were denied; the benchmark must measure the passing path`);
  const task = bench.tasks[0];
  const result = task?.result;
  if (task === undefined || result === undefined || result.state !== 'completed') throw new Error(`${name} did not complete`);
  return {
    task: task.name,
    'evaluations/s': Math.round(1000 / result.latency.mean),
    'us/evaluation': result.latency.mean * 1000,
    // The median resists the other processes of a shared machine better than the mean.
    'us p50': result.latency.p50 * 1000,
    'rme %': result.latency.rme,
    passed,
  };
}
