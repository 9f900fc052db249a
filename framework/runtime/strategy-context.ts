import { ZERO, type Decimal } from '../model/decimal.js';
import type { Instrument } from '../model/instrument.js';
import type { CancelAllIntent, CancelIntent, ClosePositionIntent, Intent, OrderListIntent, OrderSpec, PlaceIntent } from '../model/intent.js';
import type { TradingBalance } from '../model/resources/balance.js';
import type { ContingencyType, Order } from '../model/resources/order.js';
import type { Clock } from '../time/clock.js';
import type { RuntimeLogger } from './runtime-ports.js';
import type { RuntimeState } from './runtime-state.js';
import { checkIndicatorValue, indicatorsById, type IndicatorDeclaration } from './strategy-indicators.js';
import type { OrderHandle, OrderListHandle } from './order-handle.js';
import type { BookView, PositionView, StrategyContext } from './strategy.js';

/** What the context needs from the engine that owns it. */
export interface ContextHost {
  /** Takes intents from `ctx.submit` and the builders (the engine collects them for the running handler). */
  submit(intents: readonly Intent[]): void;
  /** A fresh client_order_id (the bot's generator: unique across restarts). */
  nextClientOrderId(): string;
  /** Free funds of a currency net of reservations (the risk gate's ledger); absent: from the balances. */
  freeBalance?(currency: string): Decimal | undefined;
  setTimer(timerId: string, delayMs: number, repeat: boolean): void;
  clearTimer(timerId: string): void;
  /**
   * The strategy's position from the execution side's books, when the engine has one: it
   * survives a restart (journal) where the engine's own fill ledger starts empty.
   */
  position?(symbol: string): PositionView | undefined;
  /** The strategy's declared indicators (none when absent). */
  readonly indicators?: readonly IndicatorDeclaration[];
  /** Takes a checked indicator value (a backtest collects it); absent: values are dropped. */
  recordIndicator?(id: string, symbol: string, time: number, value: number): void;
}

/**
 * {@link StrategyContext} over a {@link RuntimeState}. Reads are views of the state store (no
 * copies); the intent builders stamp `strategyId` and an intentId `<strategyId>-<n>`, numbered in
 * build order from 1, so ids are unique within the run and identical across replays.
 */
export class RuntimeStrategyContext<Params> implements StrategyContext<Params> {
  private intentCount = 0;
  private readonly indicators: ReadonlyMap<string, IndicatorDeclaration>;

  constructor(
    readonly strategyId: string,
    readonly params: Params,
    private readonly clock: Clock,
    private readonly state: RuntimeState,
    private readonly host: ContextHost,
    private readonly logger: RuntimeLogger,
  ) {
    this.indicators = indicatorsById(host.indicators);
  }

  /** Numbers intents on from `count` (after a restart, so ids stay unique across the bot's lives). */
  resumeFrom(count: number): void {
    if (Number.isSafeInteger(count) && count > this.intentCount) this.intentCount = count;
  }

  /** A fresh intent id; the engine also uses it for intents it issues on the strategy's behalf. */
  nextIntentId(): string {
    this.intentCount++;
    return `${this.strategyId}-${this.intentCount}`;
  }

  /** Intents built so far (the last number handed out). */
  get intentsBuilt(): number {
    return this.intentCount;
  }

  now(): number {
    return this.clock.now();
  }

  instrument(symbol: string): Instrument | undefined {
    return this.state.instrument(symbol);
  }

  book(symbol: string): BookView | undefined {
    return this.state.book(symbol);
  }

  balance(currency: string): TradingBalance | undefined {
    return this.state.balance(currency);
  }

  openOrders(symbol?: string): readonly Order[] {
    return this.state.openOrders(symbol);
  }

  orders(symbol?: string): readonly OrderHandle[] {
    return this.state.orders(symbol);
  }

  order(clientOrderId: string): OrderHandle | undefined {
    return this.state.order(clientOrderId);
  }

  position(symbol: string): PositionView | undefined {
    return this.host.position !== undefined ? this.host.position(symbol) : this.state.position(symbol);
  }

  freeBalance(currency: string): Decimal | undefined {
    if (this.host.freeBalance !== undefined) return this.host.freeBalance(currency);
    return this.state.balance(currency)?.available;
  }

  submit(...intents: Intent[]): void {
    this.host.submit(intents);
  }

  place(spec: OrderSpec, tag?: string): OrderHandle {
    const intent = this.buildPlace(spec, tag);
    const handle = this.state.createHandle(intent, intent.clientOrderId!, spec);
    this.host.submit([intent]);
    return handle;
  }

  cancel(order: OrderHandle | string, tag?: string): OrderHandle | undefined {
    const handle = this.state.openHandle(typeof order === 'string' ? order : order.clientOrderId);
    if (handle === undefined) return undefined;
    this.host.submit([this.buildCancel(handle.clientOrderId, tag)]);
    return handle;
  }

  replace(order: OrderHandle | string, quantity: Decimal, price?: Decimal, tag?: string): OrderHandle | undefined {
    const handle = this.state.openHandle(typeof order === 'string' ? order : order.clientOrderId);
    if (handle === undefined) return undefined;
    this.host.submit([{
      kind: 'replace', intentId: this.nextIntentId(), strategyId: this.strategyId, tag, clientOrderId: handle.clientOrderId, quantity, price,
      newClientOrderId: this.host.nextClientOrderId(),
    }]);
    return handle;
  }

  cancelAll(symbol?: string, tag?: string): Intent {
    const intent = this.buildCancelAll(symbol, tag);
    this.host.submit([intent]);
    return intent;
  }

  orderList(contingencyType: ContingencyType, orders: readonly OrderSpec[], tag?: string): OrderListHandle {
    const clientOrderIds = orders.map(() => this.host.nextClientOrderId());
    const intent: OrderListIntent = { kind: 'orderList', contingencyType, orders: [...orders], clientOrderIds, ...this.base(tag) };
    const legs = orders.map((spec, leg) => this.state.createHandle(intent, clientOrderIds[leg]!, spec, leg));
    this.host.submit([intent]);
    return this.state.listHandle(intent, legs);
  }

  closePosition(symbol: string, price?: Decimal, tag?: string): OrderHandle {
    const intent: ClosePositionIntent = {
      kind: 'closePosition', symbol, ...(price === undefined ? {} : { price }), clientOrderId: this.host.nextClientOrderId(), ...this.base(tag),
    };
    const held = this.position(symbol)?.quantity ?? ZERO;
    const handle = this.state.createHandle(intent, intent.clientOrderId!, {
      symbol, side: held.isNegative() ? 'buy' : 'sell', type: price === undefined ? 'market' : 'limit', quantity: held.abs(), price,
    });
    this.host.submit([intent]);
    return handle;
  }

  /** A place intent under a fresh client_order_id, not submitted (the engine's own orders). */
  buildPlace(spec: OrderSpec, tag?: string): PlaceIntent {
    // Built field by field: object spread here costs several microseconds per intent in V8.
    return {
      kind: 'place', intentId: this.nextIntentId(), strategyId: this.strategyId, tag, clientOrderId: this.host.nextClientOrderId(),
      symbol: spec.symbol, side: spec.side, type: spec.type, quantity: spec.quantity, price: spec.price,
      stopPrice: spec.stopPrice, timeInForce: spec.timeInForce, expireTime: spec.expireTime,
      postOnly: spec.postOnly, reduceOnly: spec.reduceOnly,
    };
  }

  /** A cancel intent, not submitted (the engine cancels on the strategy's behalf after a halt). */
  buildCancel(clientOrderId: string, tag?: string): CancelIntent {
    return { kind: 'cancel', intentId: this.nextIntentId(), strategyId: this.strategyId, tag, clientOrderId };
  }

  /** A cancelAll intent, not submitted. */
  buildCancelAll(symbol?: string, tag?: string): CancelAllIntent {
    return { kind: 'cancelAll', ...(symbol === undefined ? {} : { symbol }), ...this.base(tag) };
  }

  setTimer(timerId: string, delayMs: number, repeat = false): void {
    this.host.setTimer(timerId, delayMs, repeat);
  }

  clearTimer(timerId: string): void {
    this.host.clearTimer(timerId);
  }

  recordIndicator(id: string, symbol: string, value: number): void {
    checkIndicatorValue(this.indicators, id, symbol, value);
    this.host.recordIndicator?.(id, symbol, this.clock.now(), value);
  }

  log(level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Readonly<Record<string, unknown>>): void {
    this.logger.log(level, message, { ...fields, strategyId: this.strategyId });
  }

  private base(tag: string | undefined): { intentId: string; strategyId: string; tag?: string } {
    const intentId = this.nextIntentId();
    return tag === undefined ? { intentId, strategyId: this.strategyId } : { intentId, strategyId: this.strategyId, tag };
  }
}
