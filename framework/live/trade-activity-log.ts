import type { OrderFill, OrderTracker, TrackedOrderInfo } from '../execution/order-tracker.js';
import { ZERO, type Decimal } from '../model/decimal.js';
import type { KernelHooks } from '../runtime/bot-kernel.js';
import type { RuntimeLogger } from '../runtime/runtime-ports.js';
import type { IntentVerdict } from '../runtime/trading-pipeline.js';
import type { OrderUpdateReport } from '../model/strategy-report.js';

/** What a bot did during one run, as counted by {@link TradeActivityLog}. */
export interface TradeActivity {
  readonly orders: number;
  readonly fills: number;
  /** Fees paid per symbol, in the symbol's fee currency (negative: rebates). */
  readonly feesBySymbol: ReadonlyMap<string, Decimal>;
}

/**
 * Kernel hooks that log one info line per order sent and per fill (the console of `paper` and
 * `live` shows what the bot does) and count them for the end-of-run summary, then pass every
 * event on to `inner` (the journal). Sums are exact Decimal sums; this runs once per order or
 * fill, not per market event.
 */
export class TradeActivityLog implements KernelHooks {
  private orders = 0;
  private fills = 0;
  private readonly fees = new Map<string, Decimal>();
  /** Type and price of passed intents not yet sent, to describe their order (orderList legs by index). */
  private readonly pending = new Map<string, readonly string[]>();

  constructor(
    private readonly logger: RuntimeLogger,
    private readonly inner: KernelHooks = {},
  ) {}

  /** Counts so far. */
  get activity(): TradeActivity {
    return { orders: this.orders, fills: this.fills, feesBySymbol: new Map(this.fees) };
  }

  onVerdict(verdict: IntentVerdict): void {
    this.inner.onVerdict?.(verdict);
    if (verdict.kind !== 'passed') return;
    const intent = verdict.intent;
    if (intent.kind === 'place') this.pending.set(intent.intentId, [describe(intent.type, intent.price)]);
    else if (intent.kind === 'replace') this.pending.set(intent.intentId, [describe(undefined, intent.price)]);
    else if (intent.kind === 'orderList') this.pending.set(intent.intentId, intent.orders.map((o) => describe(o.type, o.price)));
  }

  onTrack(info: TrackedOrderInfo): void {
    this.inner.onTrack?.(info);
    this.orders++;
    const replaces = info.replaces === undefined ? '' : ` replacing ${info.replaces}`;
    const described = info.intentId === undefined ? undefined : this.pending.get(info.intentId);
    const how = described?.[info.leg ?? 0] ?? '';
    if (info.intentId !== undefined && (described === undefined || (info.leg ?? 0) >= described.length - 1)) this.pending.delete(info.intentId);
    this.logger.log('info', `order ${info.side} ${info.quantity.toFixed()} ${info.symbol}${how}${replaces}`, { id: info.clientOrderId, ...(info.intentId === undefined ? {} : { intent: info.intentId }) });
  }

  onAdopt(info: TrackedOrderInfo): void {
    this.inner.onAdopt?.(info);
  }

  onOrderUpdate(update: OrderUpdateReport): void {
    this.inner.onOrderUpdate?.(update);
  }

  onFill(info: TrackedOrderInfo, fill: OrderFill): void {
    this.inner.onFill?.(info, fill);
    this.fills++;
    this.fees.set(info.symbol, (this.fees.get(info.symbol) ?? ZERO).plus(fill.fee));
    const role = fill.taker === undefined ? '' : fill.taker ? ' taker' : ' maker';
    this.logger.log('info', `fill ${info.side} ${fill.quantity.toFixed()} ${info.symbol} @ ${fill.price.toFixed()} fee ${fill.fee.toFixed()}${role}`, { id: info.clientOrderId, trade: fill.tradeId });
  }

  onOrderFinished(tracker: OrderTracker): void {
    this.inner.onOrderFinished?.(tracker);
  }
}

function describe(type: string | undefined, price: Decimal | undefined): string {
  return `${type === undefined ? '' : ` ${type}`}${price === undefined ? '' : ` @ ${price.toFixed()}`}`;
}
