import type { Answer, VenueGateway } from '../../framework/execution/venue-gateway.js';
import type { VenueOrderListRequest, VenueOrderRequest, VenueReplaceRequest } from '../../framework/execution/venue-port.js';
import type { MarginAccount } from '../../framework/model/resources/margin-account.js';
import type { Order } from '../../framework/model/resources/order.js';
import type { TradeHistoryRecord } from '../../framework/model/resources/trade-history.js';
import type { VirtualClockScheduler } from '../../framework/runtime/virtual-clock-scheduler.js';
import type { LatencyKind, LatencyModel } from '../venue/matching/latency-model.js';
import type { SimulatedVenuePort } from '../venue/simulated-venue-port.js';

/**
 * The backtest's {@link VenueGateway}: commands reach the simulated venue at latency-adjusted
 * virtual times and their answers come back as timed events. A command sent at `now` reaches the
 * venue at `now + entry delay` (the market may move in between, and the order meets the book of
 * that moment) and its answer returns the response delay after that. Reports the venue emits while
 * processing are delivered at processing time, as a trading stream delivers them ahead of a REST
 * answer. A zero delay is the same instant: the work waits in the scheduler's same-instant queue,
 * so the intents of one strategy handler all reach the venue, in order, before any is answered.
 *
 * Model assumptions: delays come from the {@link LatencyModel} only (no queueing behind other
 * requests, no loss, so no outcome is ever unknown and nothing is retried); equal delays keep the
 * order of sending.
 */
export class SimulatedGateway implements VenueGateway {
  constructor(
    private readonly port: SimulatedVenuePort,
    private readonly scheduler: VirtualClockScheduler,
    private readonly latency: LatencyModel,
    /** Runs right before each command reaches the venue (brings the venue's clock to now). */
    private readonly beforeCall: () => void = () => {},
  ) {}

  get account(): SimulatedVenuePort['account'] {
    return this.port.account;
  }

  place(order: VenueOrderRequest, answer: Answer<Order>): void {
    this.command('place', () => this.port.placeOrderNow(order), answer);
  }

  placeList(list: VenueOrderListRequest, answer: Answer<readonly Order[]>): void {
    this.command('placeList', () => this.port.placeOrderListNow(list), answer);
  }

  replace(clientOrderId: string, change: VenueReplaceRequest, answer: Answer<Order>): void {
    this.command('replace', () => this.port.replaceOrderNow(clientOrderId, change), answer);
  }

  cancel(clientOrderId: string, answer: Answer<Order>): void {
    this.command('cancel', () => this.port.cancelOrderNow(clientOrderId), answer);
  }

  find(clientOrderId: string, answer: Answer<Order | undefined>): void {
    this.command('query', () => this.port.findOrderNow(clientOrderId), answer);
  }

  orderTrades(order: Order, answer: Answer<readonly TradeHistoryRecord[]>): void {
    this.command('query', () => this.port.orderTradesNow(order), answer);
  }

  marginAccounts(symbols: readonly string[], answer: Answer<readonly MarginAccount[] | undefined>): void {
    this.command('query', () => this.port.marginAccountsNow(symbols), answer);
  }

  wait(ms: number, then: () => void): void {
    this.after(ms, then);
  }

  /** Nothing is ever repeated here: the simulated venue always answers. */
  stopRepeats(): void {}

  private command<T>(kind: LatencyKind, call: () => T, answer: Answer<T>): void {
    this.after(this.latency.entryDelayMs(this.scheduler.now(), kind), () => {
      this.beforeCall();
      let value: T | undefined;
      let error: unknown;
      try {
        value = call();
      } catch (failure) {
        error = failure;
      }
      this.after(this.latency.responseDelayMs(this.scheduler.now(), kind), () => answer(error, value));
    });
  }

  private after(ms: number, work: () => void): void {
    if (ms > 0) this.scheduler.schedule(work, ms);
    else this.scheduler.defer(work);
  }
}
