import { NEVER } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { AccountState } from '../../framework/execution/account-state.js';
import { reconcile, type ReconcileSummary } from '../../framework/execution/reconciler.js';
import type { HistoryBatch, HistoryPage, HistoryRange, VenuePort } from '../../framework/execution/venue-port.js';
import { NetworkError } from '../../framework/exchange/errors.js';
import { dec } from '../../framework/model/decimal.js';
import type { Order } from '../../framework/model/resources/order.js';
import type { TradeHistoryRecord } from '../../framework/model/resources/trade-history.js';

/** Our clock; the exchange's runs five years behind (a sandbox replaying a recording). */
const LOCAL = Date.UTC(2026, 10, 24, 12);
const BEHIND = 5 * 365 * 86_400_000;
const PAGE = 1000;

/** An order the exchange made `ago` ms before LOCAL (exchange time), `status`, one per 100 ms of history. */
function order(id: string, ago: number, status: Order['status'] = 'canceled', executed = '0'): Order {
  const created = LOCAL - BEHIND - ago;
  return {
    id: String(LOCAL - ago), client_order_id: id, symbol: 'BTCUSDT', side: 'buy', status, type: 'limit', time_in_force: 'GTC', quantity: dec('1'),
    quantity_cumulative: dec(executed), price: dec('100'), post_only: false, created_at: created, updated_at: created + 10,
  };
}

/** A venue with an order history (newest first) read in pages of 1000, and a trade history; counts every call. */
class HistoryVenue implements VenuePort {
  readonly account = 'spot' as const;
  readonly orderReports$ = NEVER;
  readonly balances$ = NEVER;
  readonly reconnected$ = NEVER;
  readonly calls: string[] = [];
  failHistory = false;
  tradesComplete = true;

  constructor(readonly history: Order[], readonly open: Order[] = [], readonly trades: TradeHistoryRecord[] = []) {}

  async orderHistoryPage(offset: number): Promise<HistoryPage<Order>> {
    this.calls.push(`page:${offset}`);
    if (this.failHistory) throw new NetworkError('down');
    return { items: this.history.slice(offset, offset + PAGE), last: offset + PAGE >= this.history.length };
  }
  async tradeHistory(range: HistoryRange): Promise<HistoryBatch<TradeHistoryRecord>> {
    this.calls.push('trades');
    return { items: this.trades.filter((t) => t.timestamp >= range.from), complete: this.tradesComplete };
  }
  async findOrder(id: string): Promise<Order | undefined> {
    this.calls.push(`find:${id}`);
    return this.history.find((o) => o.client_order_id === id);
  }
  async orderTrades(o: Order): Promise<TradeHistoryRecord[]> {
    this.calls.push(`trades:${o.client_order_id}`);
    return this.trades.filter((t) => t.client_order_id === o.client_order_id);
  }
  async openOrders(): Promise<Order[]> {
    return this.open;
  }
  async balances() {
    return [];
  }
  placeOrder(): never { throw new Error('no'); }
  placeOrderList(): never { throw new Error('no'); }
  replaceOrder(): never { throw new Error('no'); }
  cancelOrder(): never { throw new Error('no'); }
  cancelAll(): never { throw new Error('no'); }
}

/** `count` orders of others, one per 100 ms back from `from` ms ago. */
const others = (count: number, from = 0): Order[] => Array.from({ length: count }, (_, i) => order(`x${i}`, from + i * 100));

/** An account state restored with journaled orders sent `ago` ms before LOCAL (local time). */
function restored(...orders: [id: string, ago: number][]): AccountState {
  const account = new AccountState();
  for (const [id, ago] of orders) {
    account.restore({ clientOrderId: id, strategyId: 's', symbol: 'BTCUSDT', side: 'buy', quantity: dec('1'), sentAt: LOCAL - ago }, [], false);
  }
  return account;
}

function run(venue: VenuePort, account: AccountState): Promise<ReconcileSummary> {
  return reconcile({
    venue, account, policy: 'adopt', recovery: { maxAttempts: 1, lookupAttempts: 1, retryDelayMs: 0, sleep: async () => undefined },
    emit: () => undefined, setBalances: () => undefined,
  });
}

/** Inserts `orders` into a history newest first. */
function withOrders(history: Order[], ...orders: Order[]): Order[] {
  return [...history, ...orders].sort((a, b) => b.created_at - a.created_at);
}

describe('reconciliation in batches', () => {
  it('one page settles orders found and takes the one it passed as never made, with no lookup by id', async () => {
    // Our requests reach the exchange 30 ms after they leave.
    const venue = new HistoryVenue(withOrders(others(5000), order('a', 2000 - 30, 'filled', '1'), order('b', 5000 - 30)));
    const account = restored(['a', 2000], ['b', 5000], ['never', 3000]);
    const summary = await run(venue, account);
    // The filled order's execution is not listed with it: one trade history read for it.
    expect(venue.calls).toEqual(['page:0', 'trades']);
    expect(summary.missing).toEqual(['never']);
    expect([account.get('a')?.status, account.get('b')?.status, account.get('never')]).toEqual(['filled', 'canceled', undefined]);
  });

  it('pages further back when the first page does not reach the oldest order\'s send time', async () => {
    const venue = new HistoryVenue(withOrders(others(5000), order('a', 10, 'filled', '1')));
    // 1000 orders are 100 s of history: page 2 reaches back past 150 s + the minute of slack.
    const summary = await run(venue, restored(['a', 10], ['never', 150_000]));
    expect(venue.calls).toEqual(['page:0', 'page:1000', 'page:2000', 'trades']);
    expect(summary.missing).toEqual(['never']);
  });

  it('the clock offset learned from an open order of ours is enough', async () => {
    const open = order('o', 500 - 40, 'new');
    const venue = new HistoryVenue(others(5000), [open]);
    const summary = await run(venue, restored(['o', 500], ['never', 1000]));
    expect(venue.calls).toEqual(['page:0']);
    expect(summary.missing).toEqual(['never']);
  });

  it('without an offset, the history read to its end settles what is missing', async () => {
    const venue = new HistoryVenue(others(2500));
    const summary = await run(venue, restored(['never', 1000]));
    expect(venue.calls).toEqual(['page:0', 'page:1000', 'page:2000']);
    expect(summary.missing).toEqual(['never']);
  });

  it('without an offset and past the page budget, what is missing is looked up by id', async () => {
    const venue = new HistoryVenue(others(12_000));
    const summary = await run(venue, restored(['never', 1000]));
    expect(venue.calls.filter((c) => c.startsWith('page:'))).toHaveLength(10);
    expect(venue.calls.at(-1)).toBe('find:never');
    expect(summary.missing).toEqual(['never']);
  });

  it('a history read that fails falls back to lookups by id', async () => {
    const venue = new HistoryVenue(withOrders(others(10), order('a', 100, 'filled', '1')));
    venue.failHistory = true;
    const account = restored(['a', 100], ['never', 200]);
    const summary = await run(venue, account);
    expect(venue.calls).toEqual(['page:0', 'find:a', 'find:never', 'trades']);
    expect(account.get('a')?.status).toBe('filled');
    expect(summary.missing).toEqual(['never']);
  });

  it('executions missed while away come from one trade history read; per order only when it was incomplete', async () => {
    const trade = (id: string, client: string): TradeHistoryRecord => ({
      id, order_id: '1', client_order_id: client, symbol: 'BTCUSDT', side: 'buy', quantity: dec('0.5'), price: dec('100'), fee: dec('0'),
      timestamp: LOCAL - BEHIND - 50, taker: false,
    });
    const history = withOrders(others(10), order('a', 100, 'filled', '1'), order('b', 200, 'partiallyFilled', '0.5'));
    const trades = [trade('t1', 'a'), trade('t2', 'a'), trade('t3', 'b'), trade('t4', 'x1')];
    const complete = new HistoryVenue(history, [], trades);
    const account = restored(['a', 100], ['b', 200]);
    await run(complete, account);
    expect(complete.calls).toEqual(['page:0', 'trades']);
    expect(account.positions.position('s', 'BTCUSDT')?.quantity.toFixed()).toBe('1.5');
    const partial = new HistoryVenue(history, [], trades.slice(0, 1));
    partial.tradesComplete = false;
    await run(partial, restored(['a', 100]));
    expect(partial.calls).toEqual(['page:0', 'trades', 'trades:a']);
  });
});
