import { ErrorCode, ExchangeError } from '../exchange/errors.js';
import type { Order } from '../model/resources/order.js';
import type { AccountState } from './account-state.js';
import type { OrderTracker } from './order-tracker.js';
import { isRetryableFailure, type RecoveryOptions } from './unknown-outcome.js';
import type { Answer, VenueGateway } from './venue-gateway.js';

/** What an {@link OrderCancellation} works with; the execution engine provides it. */
export interface OrderCancellationContext {
  readonly gateway: VenueGateway;
  readonly account: AccountState;
  readonly recovery: RecoveryOptions;
  /** Whether the bot is stopping (changes then also go out as status reports). */
  stopping(): boolean;
  /** Tells the strategy's observers how an order is now, when no stream report may come to say it. */
  emitStatus(order: Order): void;
}

/**
 * The cancel of one tracked order as commands, and the booking of executions no report brought.
 * After a failure that may have worked, or a "not found" (the order may have filled, its report
 * still on the way), the order's state decides, looked up by client_order_id, and executions the
 * lookup shows are booked; retried within the recovery policy while the order stays active.
 */
export class OrderCancellation {
  /** Orders canceled while stopping (a strategy's onStop and the shutdown alike), in the order the answers came. */
  readonly canceledWhileStopping = new Set<string>();

  constructor(private readonly context: OrderCancellationContext) {}

  /**
   * Cancels `tracker`'s order; `answer` gets the canceled order, or the failure: a 20002 stands
   * when the order was not canceled by this request (filled, or canceled by a replace or someone
   * else), unless the lookup shows it canceled.
   */
  cancel(tracker: OrderTracker, answer: Answer<Order>, attempt = 1): void {
    const { gateway, recovery } = this.context;
    const id = tracker.clientOrderId;
    const reply = once(answer);
    gateway.cancel(id, (error, order) => guarded(reply, () => {
      if (error === undefined) {
        this.applyAnswer(order!);
        this.bookMissedFills(tracker, (bookError) => (bookError === undefined ? reply(undefined, this.noteCanceled(order!)) : reply(bookError, undefined)));
        return;
      }
      if (!isRetryableFailure(error) && !isNotFound(error)) return reply(error, undefined);
      gateway.find(id, (lookupError, found) => guarded(reply, () => {
        if (lookupError !== undefined) return reply(lookupError, undefined);
        const decide = (bookError: unknown): void => guarded(reply, () => {
          if (bookError !== undefined) return reply(bookError, undefined);
          if (found === undefined || !tracker.active) {
            if (found !== undefined && !isNotFound(error)) return reply(undefined, this.noteCanceled(found));
            // Executions are booked above either way; a canceled order is the answer to a 20002.
            if (found?.status === 'canceled') return reply(undefined, found);
            return reply(error, undefined);
          }
          if (attempt >= recovery.maxAttempts) return reply(error, undefined);
          gateway.wait(recovery.retryDelayMs, () => this.cancel(tracker, reply, attempt + 1));
        });
        if (found === undefined) return decide(undefined);
        this.applyAnswer(found);
        this.bookMissedFills(tracker, decide);
      }));
    }));
  }

  /**
   * Books the executions the exchange counts for an order (its executed quantity) that no report
   * brought yet, from the order's trade history; `then` runs at once when nothing is missing, else
   * with the history read's outcome.
   */
  bookMissedFills(tracker: OrderTracker, then: (error: unknown) => void): void {
    const order = tracker.order;
    const missing = tracker.unattributedQuantity;
    if (order === undefined || !missing.isPositive() || missing.isZero()) {
      then(undefined);
      return;
    }
    this.context.gateway.orderTrades({ ...order, trades: undefined }, (error, trades) => {
      let failure = error;
      try {
        if (failure === undefined) this.context.account.applyTrades(tracker.clientOrderId, trades!);
      } catch (applyError) {
        failure = applyError;
      }
      then(failure);
    });
  }

  /**
   * Applies a cancel's answer or lookup. While stopping the change also goes out as a `status`
   * report (the strategy is stopped: its observers, the journal among them, still hear how the
   * order ended even when the stream's report comes after the bot stopped listening).
   */
  private applyAnswer(order: Order): void {
    if (this.context.account.applyOrder(order).changed && this.context.stopping()) this.context.emitStatus(order);
  }

  private noteCanceled(order: Order): Order {
    if (this.context.stopping() && order.status === 'canceled') this.canceledWhileStopping.add(order.client_order_id);
    return order;
  }
}

/** `answer`, told at most once (later calls are ignored). */
function once(answer: Answer<Order>): Answer<Order> {
  let told = false;
  return (error, order) => {
    if (told) return;
    told = true;
    answer(error, order);
  };
}

/**
 * Runs one step of a cancel; what it throws (a bug applying an answer) becomes the cancel's
 * failure, so the cancel, and the intent behind it, always end. `reply` is once-only: a throw after
 * the answer was told changes nothing.
 */
function guarded(reply: Answer<Order>, step: () => void): void {
  try {
    step();
  } catch (error) {
    reply(error, undefined);
  }
}

/** A 20002 (order not found). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ExchangeError && error.exchangeCode === ErrorCode.OrderNotFound;
}
