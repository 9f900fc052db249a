import { ErrorCode } from '../../../../framework/exchange/errors.js';
import { Decimal } from '../../../../framework/model/decimal.js';
import type { TradingBalance, WalletBalance } from '../../../../framework/model/resources/balance.js';
import type { Order } from '../../../../framework/model/resources/order.js';
import type { TradeHistoryRecord } from '../../../../framework/model/resources/trade-history.js';
import type { ReportType } from '../../../../framework/model/stream/order-report.js';
import type { VenueContext } from '../../../../backtest/sandbox/sandbox-config.js';
import {
  VenueRejection, type AccountId, type NewOrderRequest, type OrderListRequest, type ReplaceOrderRequest, type TransferRequest, type Venue,
} from '../../../../backtest/venue/venue-types.js';

type Ledger = Map<string, { available: Decimal; reserved: Decimal }>;

/**
 * A small stand-in for the simulated venue: limit orders only, reserved in full, filled whole by
 * the first public trade at or through their price (taker fee 0). Enough to drive every sandbox
 * path: reports, balances, transfers, and the rejections 2001, 20001, 20002, 20008.
 */
export class FakeVenue implements Venue {
  private time = 0;
  private nextId = 1;
  private readonly spot = new Map<AccountId, Ledger>();
  private readonly wallet = new Map<AccountId, Ledger>();
  private readonly orders = new Map<string, Order & { account: AccountId }>();
  private readonly history: Array<Order & { account: AccountId }> = [];
  private readonly trades: Array<TradeHistoryRecord & { account: AccountId }> = [];
  readonly frames: unknown[] = [];

  constructor(private readonly context: VenueContext) {
    for (const account of context.accounts) {
      this.spot.set(account.id, ledger(account.spot));
      this.wallet.set(account.id, ledger(account.wallet));
    }
  }

  now(): number {
    return this.time;
  }

  advanceTo(time: number): void {
    this.time = Math.max(this.time, Math.floor(time));
  }

  onMarketFrame(frame: unknown, receivedAt: number): void {
    this.advanceTo(receivedAt);
    this.frames.push(frame);
    const msg = frame as { ch?: string; update?: Record<string, Array<{ p: string; q: string }>> };
    if (msg.ch !== 'trades' || !msg.update) return;
    for (const [symbol, trades] of Object.entries(msg.update)) {
      for (const trade of trades) {
        for (const order of [...this.orders.values()]) {
          if (order.symbol !== symbol || order.price === undefined) continue;
          const crosses = order.side === 'buy' ? new Decimal(trade.p).lte(order.price) : new Decimal(trade.p).gte(order.price);
          if (crosses) this.fill(order);
        }
      }
    }
  }

  placeOrder(account: AccountId, request: NewOrderRequest): Order {
    const info = this.context.symbols[request.symbol];
    if (!info) throw new VenueRejection(ErrorCode.SymbolNotFound, request.symbol);
    const clientOrderId = request.client_order_id ?? `fake-${this.nextId}`;
    if (this.orders.has(clientOrderId)) throw new VenueRejection(ErrorCode.DuplicateClientOrderId, clientOrderId);
    if (request.price === undefined) throw new VenueRejection(ErrorCode.ValidationError, 'price is required');
    const quantity = new Decimal(request.quantity);
    const price = new Decimal(request.price);
    const [currency, amount] = request.side === 'buy' ? [info.quote_currency, quantity.times(price)] : [info.base_currency ?? '', quantity];
    this.reserve(account, currency, amount);
    const order = {
      account, id: String(this.nextId++), client_order_id: clientOrderId, symbol: request.symbol, side: request.side,
      status: 'new' as const, type: 'limit' as const, time_in_force: request.time_in_force ?? 'GTC', quantity,
      quantity_cumulative: new Decimal(0), price, post_only: request.post_only ?? false, created_at: this.time, updated_at: this.time,
    };
    this.orders.set(clientOrderId, order);
    this.history.unshift(order);
    this.report(order, 'new');
    this.balanceEvent(account, [currency]);
    return strip(order);
  }

  placeOrderList(account: AccountId, request: OrderListRequest): Order[] {
    return request.orders.map((o) => this.placeOrder(account, o));
  }

  replaceOrder(account: AccountId, request: ReplaceOrderRequest): Order {
    const old = this.cancelQuiet(account, request.client_order_id);
    const order = this.placeOrder(account, {
      client_order_id: request.new_client_order_id, symbol: old.symbol, side: old.side, quantity: request.quantity,
      price: request.price ?? old.price?.toFixed(),
    });
    return { ...order, original_client_order_id: old.client_order_id };
  }

  cancelOrder(account: AccountId, clientOrderId: string): Order {
    const order = this.cancelQuiet(account, clientOrderId);
    this.report(order, 'canceled');
    return strip(order);
  }

  cancelAll(account: AccountId, symbol?: string): Order[] {
    return [...this.orders.values()].filter((o) => o.account === account && (symbol === undefined || o.symbol === symbol))
      .map((o) => this.cancelOrder(account, o.client_order_id));
  }

  getOpenOrder(account: AccountId, clientOrderId: string): Order {
    const order = this.orders.get(clientOrderId);
    if (!order || order.account !== account) throw new VenueRejection(ErrorCode.OrderNotFound, clientOrderId);
    return strip(order);
  }

  openOrders(account: AccountId, symbol?: string): Order[] {
    return [...this.orders.values()].filter((o) => o.account === account && (symbol === undefined || o.symbol === symbol)).map(strip);
  }

  orderHistory(account: AccountId): Order[] {
    return this.history.filter((o) => o.account === account).map(strip);
  }

  tradeHistory(account: AccountId): readonly TradeHistoryRecord[] {
    return this.trades.filter((t) => t.account === account).map(({ account: _a, ...t }) => t);
  }

  spotBalances(account: AccountId): TradingBalance[] {
    return [...(this.spot.get(account) ?? new Map()).entries()].map(([currency, b]) => ({ currency, ...b, reserved_margin: new Decimal(0) }));
  }

  walletBalances(account: AccountId): WalletBalance[] {
    return [...(this.wallet.get(account) ?? new Map()).entries()].map(([currency, b]) => ({ currency, ...b }));
  }

  transfer(account: AccountId, request: TransferRequest): string {
    const from = (request.source === 'spot' ? this.spot : this.wallet).get(account);
    const to = (request.destination === 'spot' ? this.spot : this.wallet).get(account);
    const amount = new Decimal(request.amount);
    const held = from?.get(request.currency);
    if (!from || !to || !held || held.available.lt(amount)) throw new VenueRejection(ErrorCode.InsufficientFunds, request.currency);
    held.available = held.available.minus(amount);
    const target = to.get(request.currency) ?? { available: new Decimal(0), reserved: new Decimal(0) };
    target.available = target.available.plus(amount);
    to.set(request.currency, target);
    this.balanceEvent(account, [request.currency]);
    this.context.onEvent({ kind: 'wallet', account, balances: this.walletBalances(account) });
    return `transfer-${this.nextId++}`;
  }

  feeRate(_account: AccountId, symbol: string): { take_rate: Decimal; make_rate: Decimal } {
    const info = this.context.symbols[symbol];
    if (!info) throw new VenueRejection(ErrorCode.SymbolNotFound, symbol);
    return { take_rate: info.take_rate, make_rate: info.make_rate };
  }

  private fill(order: Order & { account: AccountId }): void {
    const info = this.context.symbols[order.symbol];
    const price = order.price ?? new Decimal(0);
    this.orders.delete(order.client_order_id);
    const filled = { ...order, status: 'filled' as const, quantity_cumulative: order.quantity, updated_at: this.time };
    const i = this.history.indexOf(order);
    if (i >= 0) this.history[i] = filled;
    const spot = this.spot.get(order.account) ?? new Map();
    const base = info?.base_currency ?? '';
    const quote = info?.quote_currency ?? '';
    const [paid, got, paidAmount, gotAmount] = order.side === 'buy'
      ? [quote, base, order.quantity.times(price), order.quantity] : [base, quote, order.quantity, order.quantity.times(price)];
    const from = spot.get(paid);
    if (from) from.reserved = from.reserved.minus(paidAmount);
    const to = spot.get(got) ?? { available: new Decimal(0), reserved: new Decimal(0) };
    to.available = to.available.plus(gotAmount);
    spot.set(got, to);
    const tradeId = String(this.nextId++);
    this.trades.unshift({
      account: order.account, id: tradeId, order_id: order.id, client_order_id: order.client_order_id, symbol: order.symbol, side: order.side,
      quantity: order.quantity, price, fee: new Decimal(0), timestamp: this.time, taker: false,
    });
    const { account, ...rest } = filled;
    this.context.onEvent({
      kind: 'order', account, cause: { kind: 'timer', time: this.time, reason: 'expire-day' },
      report: { ...rest, report_type: 'trade', trade_id: tradeId, trade_quantity: order.quantity, trade_price: price, trade_fee: new Decimal(0), trade_taker: false },
    });
    this.balanceEvent(order.account, [paid, got]);
  }

  private cancelQuiet(account: AccountId, clientOrderId: string): Order & { account: AccountId } {
    const order = this.orders.get(clientOrderId);
    if (!order || order.account !== account) throw new VenueRejection(ErrorCode.OrderNotFound, clientOrderId);
    const info = this.context.symbols[order.symbol];
    const [currency, amount] = order.side === 'buy'
      ? [info?.quote_currency ?? '', order.quantity.times(order.price ?? 0)] : [info?.base_currency ?? '', order.quantity];
    const held = this.spot.get(account)?.get(currency);
    if (held) {
      held.reserved = held.reserved.minus(amount);
      held.available = held.available.plus(amount);
    }
    this.orders.delete(clientOrderId);
    const canceled = { ...order, status: 'canceled' as const, updated_at: this.time };
    const i = this.history.indexOf(order);
    if (i >= 0) this.history[i] = canceled;
    this.balanceEvent(account, [currency]);
    return canceled;
  }

  private reserve(account: AccountId, currency: string, amount: Decimal): void {
    const held = this.spot.get(account)?.get(currency);
    if (!held || held.available.lt(amount)) throw new VenueRejection(ErrorCode.InsufficientFunds, currency);
    held.available = held.available.minus(amount);
    held.reserved = held.reserved.plus(amount);
  }

  private report(order: Order & { account: AccountId }, type: ReportType): void {
    const { account, trades: _t, ...rest } = order;
    this.context.onEvent({ kind: 'order', account, report: { ...rest, report_type: type }, cause: { kind: 'request', requestId: 0 } });
  }

  private balanceEvent(account: AccountId, currencies: readonly string[]): void {
    const balances = this.spotBalances(account).filter((b) => currencies.includes(b.currency ?? ''));
    this.context.onEvent({ kind: 'balance', account, balances });
  }
}

function ledger(initial: Readonly<Record<string, string>> | undefined): Ledger {
  return new Map(Object.entries(initial ?? {}).map(([c, a]) => [c, { available: new Decimal(a), reserved: new Decimal(0) }]));
}

function strip(order: Order & { account: AccountId }): Order {
  const { account: _a, ...rest } = order;
  return rest;
}
