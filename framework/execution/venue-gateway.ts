import type { MarginAccount } from '../model/resources/margin-account.js';
import type { Order } from '../model/resources/order.js';
import type { TradeHistoryRecord } from '../model/resources/trade-history.js';
import type { VenueOrderListRequest, VenueOrderRequest, VenuePort, VenueReplaceRequest } from './venue-port.js';

/**
 * How a venue command ends, told once: `error` undefined and the value, or the failure (an
 * ExchangeError with the exchange's code, or an OutcomeUnknownError when the request may have
 * taken effect and every lookup failed: reconciliation settles it).
 */
export type Answer<T> = (error: unknown, value: T | undefined) => void;

/**
 * One request's measured latency: sent at `t` (the bot's clock, ms), reaching the exchange
 * `entryMs` later (its own time stamp on the answer) and answered `responseMs` after that. The
 * exchange stamps whole milliseconds and its clock is not the bot's: the entry leg is the answer's
 * time less the sending time, kept within the round trip (0 to all of it), the response leg the
 * rest of the round trip. A backtest replays a series of these (`backtest.latency: FILE.jsonl`).
 */
export interface LatencySample {
  readonly t: number;
  readonly entryMs: number;
  readonly responseMs: number;
}

/**
 * The execution engine's commands to a venue. A command returns at once; its answer comes back
 * later as a call of `answer`, never during the command itself, so the engine stays synchronous:
 * an intent becomes commands, and answers are events it applies when they arrive. Two
 * implementations: {@link PortGateway} over an asynchronous {@link VenuePort} (live and sandbox:
 * the answer arrives when the exchange's reply does, after the retries and lookups that keep a
 * request from making an order twice), and the backtest's gateway over the simulated venue, which
 * answers at latency-adjusted virtual times.
 */
export interface VenueGateway {
  readonly account: VenuePort['account'];
  /** Places an order; a creating request is never repeated after {@link stopRepeats}. */
  place(order: VenueOrderRequest, answer: Answer<Order>): void;
  placeList(list: VenueOrderListRequest, answer: Answer<readonly Order[]>): void;
  replace(clientOrderId: string, change: VenueReplaceRequest, answer: Answer<Order>): void;
  cancel(clientOrderId: string, answer: Answer<Order>): void;
  /** The order by client_order_id (active, then history); undefined when the venue never saw it. */
  find(clientOrderId: string, answer: Answer<Order | undefined>): void;
  /** The executions of one order (its trade history). */
  orderTrades(order: Order, answer: Answer<readonly TradeHistoryRecord[]>): void;
  /** Margin and futures: the isolated accounts of `symbols` as the venue keeps them; undefined on spot (nothing to read). */
  marginAccounts(symbols: readonly string[], answer: Answer<readonly MarginAccount[] | undefined>): void;
  /** Sends the commands given so far that the venue still holds (see {@link VenuePort.flush}); optional. */
  flush?(): void;
  /** Runs `then` after `ms` on the engine's time (a retry's pause). */
  wait(ms: number, then: () => void): void;
  /**
   * From now on a creating request that failed is not sent again (it would make an order after the
   * bot was asked to stop): its outcome stays unknown, for a lookup by client_order_id.
   */
  stopRepeats(): void;
}
