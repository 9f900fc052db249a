import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Subject, type Observable } from 'rxjs';
import { SimulatedVenue } from '../../../backtest/venue/simulated-venue.js';
import { ReplayedSymbolMarket } from '../../../backtest/venue/matching/replayed-symbol-market.js';
import { ClientOrderIdGenerator } from '../../../framework/execution/client-order-ids.js';
import { ExecutionAdapter } from '../../../framework/execution/execution-adapter.js';
import { SimulatedVenuePort } from '../../../backtest/venue/simulated-venue-port.js';
import type {
  HistoryBatch, HistoryPage, HistoryRange, VenueOrderListRequest, VenueOrderRequest, VenuePort, VenueReplaceRequest,
} from '../../../framework/execution/venue-port.js';
import { ExchangeError, NetworkError, TimeoutError } from '../../../framework/exchange/errors.js';
import { Journal } from '../../../framework/live/journal.js';
import { Instrument } from '../../../framework/model/instrument.js';
import type { TradingBalance } from '../../../framework/model/resources/balance.js';
import type { Order } from '../../../framework/model/resources/order.js';
import type { TradeHistoryRecord } from '../../../framework/model/resources/trade-history.js';
import type { OrderReport } from '../../../framework/model/stream/order-report.js';
import { VirtualClock } from '../../../framework/time/clock.js';
import { SYMBOLS, bookSnapshot } from '../../backtest/sandbox/support/sandbox-fixture.js';

export const BTC = new Instrument('BTCUSDT', SYMBOLS.BTCUSDT!);
export const START = 1_700_000_000_000; // 2023-11-14

/**
 * What the next venue call does: `ok`; `refused` (a final exchange refusal, nothing done);
 * `lost-before` (no answer, nothing done); `lost-after` (done, answer lost); `failed` (a lookup or
 * read that errs, nothing learned).
 */
export type Fault = 'ok' | 'refused' | 'lost-before' | 'lost-after' | 'failed';

/**
 * A port over the simulated venue whose calls follow a script of faults, and whose report stream
 * can be muted (reports lost on the way). Counts every call by name.
 */
export class FaultyVenuePort implements VenuePort {
  readonly account = 'spot' as const;
  readonly script: Fault[] = [];
  readonly calls = new Map<string, number>();
  /** Reports are dropped while set. */
  muted = false;
  private readonly reports = new Subject<OrderReport>();
  readonly orderReports$: Observable<OrderReport> = this.reports.asObservable();
  readonly balances$: Observable<readonly TradingBalance[]>;
  readonly reconnected$ = new Subject<number>();

  constructor(readonly inner: SimulatedVenuePort) {
    inner.orderReports$.subscribe((r) => { if (!this.muted) this.reports.next(r); });
    this.balances$ = inner.balances$;
  }

  placeOrder(order: VenueOrderRequest): Promise<Order> {
    return this.run('placeOrder', () => this.inner.placeOrder(order));
  }
  placeOrderList(list: VenueOrderListRequest): Promise<Order[]> {
    return this.run('placeOrderList', () => this.inner.placeOrderList(list));
  }
  replaceOrder(clientOrderId: string, change: VenueReplaceRequest): Promise<Order> {
    return this.run('replaceOrder', () => this.inner.replaceOrder(clientOrderId, change));
  }
  cancelOrder(clientOrderId: string): Promise<Order> {
    return this.run('cancelOrder', () => this.inner.cancelOrder(clientOrderId));
  }
  cancelAll(symbol?: string): Promise<Order[]> {
    return this.run('cancelAll', () => this.inner.cancelAll(symbol));
  }
  findOrder(clientOrderId: string): Promise<Order | undefined> {
    return this.run('findOrder', () => this.inner.findOrder(clientOrderId));
  }
  openOrders(symbol?: string): Promise<Order[]> {
    return this.count('openOrders', () => this.inner.openOrders(symbol));
  }
  balances(): Promise<TradingBalance[]> {
    return this.count('balances', () => this.inner.balances());
  }
  orderTrades(order: Order): Promise<TradeHistoryRecord[]> {
    return this.run('orderTrades', () => this.inner.orderTrades(order));
  }
  orderHistoryPage(offset: number): Promise<HistoryPage<Order>> {
    return this.run('orderHistoryPage', () => this.inner.orderHistoryPage(offset));
  }
  tradeHistory(range: HistoryRange): Promise<HistoryBatch<TradeHistoryRecord>> {
    return this.run('tradeHistory', () => this.inner.tradeHistory(range));
  }

  /** Calls of `names` so far (all calls without names). */
  count(...names: string[]): number;
  count<T>(name: string, act: () => Promise<T>): Promise<T>;
  count<T>(...args: unknown[]): number | Promise<T> {
    if (typeof args[1] === 'function') {
      const name = args[0] as string;
      this.calls.set(name, (this.calls.get(name) ?? 0) + 1);
      return (args[1] as () => Promise<T>)();
    }
    const names = args as string[];
    let n = 0;
    for (const [name, calls] of this.calls) if (names.length === 0 || names.includes(name)) n += calls;
    return n;
  }

  private async run<T>(name: string, act: () => Promise<T>): Promise<T> {
    const fault = this.script.shift() ?? 'ok';
    return this.count(name, async () => {
      if (fault === 'refused') throw new ExchangeError(20001, 'Insufficient funds', undefined, 400);
      if (fault === 'lost-before') throw new TimeoutError('no reply', { outcomeUnknown: true });
      if (fault === 'failed') throw new NetworkError('connection refused', { outcomeUnknown: false });
      const result = await act();
      if (fault === 'lost-after') throw new NetworkError('connection lost', { outcomeUnknown: true });
      return result;
    });
  }
}

/** One bot process: its port, journal and adapter (restored from the journal, not yet started). */
export interface Life {
  readonly port: FaultyVenuePort;
  readonly journal: Journal;
  readonly adapter: ExecutionAdapter;
}

/**
 * One simulated venue (it outlives the bot) and a journal folder; `boot` starts a new bot process
 * from what the journal says, as the live bot does: recover, open (compacting), restore.
 */
export function journalWorld(dirs: string[], options: { readonly botClockAheadMs?: number } = {}) {
  const clock = new VirtualClock(START);
  // The bot's clock may run apart from the venue's (a sandbox replaying a recording lives in the past).
  const botClock = { now: () => clock.now() + (options.botClockAheadMs ?? 0) };
  let inner = new SimulatedVenuePort('main');
  const venue = new SimulatedVenue([BTC], { main: { spot: { USDT: '100000', BTC: '100' } } }, (i) => new ReplayedSymbolMarket(i), (e) => inner.onVenueEvent(e), clock.now());
  venue.onMarketFrame(bookSnapshot(), clock.now());
  const dir = mkdtempSync(path.join(tmpdir(), 'journal-world-'));
  dirs.push(dir);
  let tradeId = 0;
  const boot = (): Life => {
    inner = new SimulatedVenuePort('main');
    inner.attach(venue);
    const port = new FaultyVenuePort(inner);
    const journal = new Journal({ dir, botId: 'b', syncEveryMs: 0, now: () => botClock.now() });
    const ids = new ClientOrderIdGenerator('b', botClock, undefined);
    const recovered = journal.recover(ids);
    journal.open();
    const adapter = new ExecutionAdapter({
      venue: port, ids: new ClientOrderIdGenerator('b', botClock, recovered.ids), clock: botClock, unknownOrders: 'adopt', adoptAs: 's',
      recovery: { sleep: async () => undefined },
      onTrack: (info) => journal.onTrack(info), onAdopt: (info) => journal.onAdopt(info), onFill: (info, fill) => journal.onFill(info, fill), onOrderFinished: (t) => journal.onOrderFinished(t),
    });
    for (const order of recovered.orders) adapter.account.restore(order.info, order.fills, order.finished);
    return { port, journal, adapter };
  };
  /** A public trade at `price` (a taker of `side` takes resting orders of the other side). */
  const trade = (price: string, quantity: string, side: 'buy' | 'sell'): void => {
    tradeId++;
    clock.advanceTo(clock.now() + 1000);
    venue.onMarketFrame({ ch: 'trades', update: { BTCUSDT: [{ t: clock.now(), i: tradeId, p: price, q: quantity, s: side }] } }, clock.now());
  };
  const file = path.join(dir, 'b.journal.jsonl');
  return { clock, venue, boot, trade, file, lines: () => journalLines(file) };
}

/** The journal's records, parsed. */
export function journalLines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Every order line's id and its final line (status and reason), if any, as the file says. */
export function finalLines(file: string): Map<string, { status: string; reason: string } | undefined> {
  const orders = new Map<string, { status: string; reason: string } | undefined>();
  for (const r of journalLines(file)) {
    if (r['k'] === 'order') orders.set(r['id'] as string, undefined);
    else if (r['k'] === 'final' && orders.has(r['id'] as string)) orders.set(r['id'] as string, { status: r['status'] as string, reason: r['reason'] as string });
  }
  return orders;
}
