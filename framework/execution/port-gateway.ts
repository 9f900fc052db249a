import type { MarginAccount } from '../model/resources/margin-account.js';
import type { Order } from '../model/resources/order.js';
import type { TradeHistoryRecord } from '../model/resources/trade-history.js';
import { DEFAULT_RECOVERY, OutcomeUnknownError, lookupList, lookupWithRetry, sendWithoutDuplicates, type RecoveryOptions } from './unknown-outcome.js';
import type { Clock } from '../time/clock.js';
import type { Answer, LatencySample, VenueGateway } from './venue-gateway.js';
import type { VenueOrderListRequest, VenueOrderRequest, VenuePort, VenueReplaceRequest } from './venue-port.js';

/**
 * The {@link VenueGateway} over an asynchronous {@link VenuePort}: the edge where the exchange's
 * promises become answers. Creating requests go through {@link sendWithoutDuplicates} (a failure
 * that may have worked is looked up by client_order_id before the same ids are sent again), and
 * lookups retry within the recovery policy, so each command is answered once with its final
 * outcome. Answers arrive in promise continuations, never during the command.
 */
export class PortGateway implements VenueGateway {
  private readonly recovery: RecoveryOptions;
  private repeats = true;

  /**
   * With `latency`, each order request that the exchange answers (place, order list, replace,
   * cancel) is measured on `latency.clock` and told to `latency.record` (see {@link LatencySample}).
   */
  constructor(
    private readonly port: VenuePort,
    recovery: Partial<RecoveryOptions> = {},
    private readonly latency?: { readonly clock: Clock; readonly record: (sample: LatencySample) => void },
  ) {
    this.recovery = { ...DEFAULT_RECOVERY, ...recovery };
  }

  get account(): VenuePort['account'] {
    return this.port.account;
  }

  place(order: VenueOrderRequest, answer: Answer<Order>): void {
    const port = this.port;
    deliver(sendWithoutDuplicates(this.sendOnce(() => port.placeOrder(order)), () => port.findOrder(order.client_order_id), this.recovery), answer);
  }

  placeList(list: VenueOrderListRequest, answer: Answer<readonly Order[]>): void {
    const port = this.port;
    const ids = list.orders.map((o) => o.client_order_id);
    deliver(sendWithoutDuplicates(this.sendOnce(() => port.placeOrderList(list)), () => lookupList(ids, (id) => port.findOrder(id)), this.recovery), answer);
  }

  replace(clientOrderId: string, change: VenueReplaceRequest, answer: Answer<Order>): void {
    const port = this.port;
    deliver(sendWithoutDuplicates(
      this.sendOnce(() => port.replaceOrder(clientOrderId, change)), () => port.findOrder(change.new_client_order_id), this.recovery,
    ), answer);
  }

  cancel(clientOrderId: string, answer: Answer<Order>): void {
    deliver(this.measured(() => this.port.cancelOrder(clientOrderId)), answer);
  }

  find(clientOrderId: string, answer: Answer<Order | undefined>): void {
    deliver(lookupWithRetry(() => this.port.findOrder(clientOrderId), this.recovery), answer);
  }

  orderTrades(order: Order, answer: Answer<readonly TradeHistoryRecord[]>): void {
    deliver(this.port.orderTrades(order), answer);
  }

  marginAccounts(symbols: readonly string[], answer: Answer<readonly MarginAccount[] | undefined>): void {
    const read = this.port.marginAccounts;
    deliver(read === undefined ? Promise.resolve(undefined) : read.call(this.port, symbols), answer);
  }

  flush(): void {
    this.port.flush?.();
  }

  wait(ms: number, then: () => void): void {
    void this.recovery.sleep(ms).then(then);
  }

  stopRepeats(): void {
    this.repeats = false;
  }

  /** The first attempt goes out; a repeat only while repeats are allowed (see {@link stopRepeats}). Each attempt is measured. */
  private sendOnce<T extends Order | Order[]>(send: () => Promise<T>): () => Promise<T> {
    let sent = false;
    return () => {
      if (sent && !this.repeats) return Promise.reject(new OutcomeUnknownError('not sent again: the bot is stopping; the order is looked up instead'));
      sent = true;
      return this.measured(send);
    };
  }

  /** One request, its latency told when the exchange answers it with an order (the answer's time stamp is the exchange's). */
  private measured<T extends Order | Order[]>(send: () => Promise<T>): Promise<T> {
    const latency = this.latency;
    if (latency === undefined) return send();
    const sentAt = latency.clock.now();
    return send().then((answer) => {
      const receivedAt = latency.clock.now();
      const order: Order | undefined = Array.isArray(answer) ? (answer as Order[])[0] : (answer as Order);
      if (order !== undefined) {
        const roundTrip = Math.max(0, receivedAt - sentAt);
        const entryMs = Math.min(roundTrip, Math.max(0, order.updated_at - sentAt));
        latency.record({ t: sentAt, entryMs, responseMs: roundTrip - entryMs });
      }
      return answer;
    });
  }
}

/** Hands a promise's outcome to an answer, once; a throwing answer is a bug of the engine and surfaces as such. */
function deliver<T>(promise: Promise<T>, answer: Answer<T>): void {
  promise.then((value) => answer(undefined, value), (error: unknown) => answer(error ?? new Error('venue call failed without a reason'), undefined)).catch((bug: unknown) => {
    queueMicrotask(() => {
      throw bug;
    });
  });
}
