import type { ClientOrderIdState } from '../execution/client-order-ids.js';
import type { OrderFill, OrderTracker, TrackedOrderInfo } from '../execution/order-tracker.js';
import { Decimal, ZERO, toWire } from '../model/decimal.js';
import type { DecisionFrame } from '../model/decision-frame.js';
import type { Side } from '../model/instrument.js';

/**
 * Why a journaled order ended: its final status, or how it left the exchange's books otherwise
 * (`replaced` by a replace, `rejected` when its request was refused, `never-existed` when a
 * lookup showed its request never made it).
 */
export type FinalReason = 'filled' | 'canceled' | 'expired' | 'rejected' | 'never-existed' | 'replaced';

/** One line of the journal (JSON), tagged by `k`; `t` is the local time it was written. */
export type JournalRecord =
  | { k: 'start'; t: number; pid: number }
  | {
    k: 'order'; t: number; id: string; intent?: string; strategy?: string; symbol: string; side: Side; quantity: string; list?: string;
    leg?: number; replaces?: string; adopted?: boolean;
    /** Type and limit price as sent; the market frame behind the decision (absent in journals from before they were written). */
    type?: string; price?: string; frame?: JournaledFrame;
    /** The venue's forced close of a position (booked across the strategies it closes, on restart too). */
    liquidation?: boolean;
  }
  | { k: 'intent'; t: number; intent: string; kind: string; strategy: string; tag?: string }
  | { k: 'denied'; t: number; intent: string; check: string; reason: string }
  | { k: 'fill'; t: number; id: string; trade: string; quantity: string; price: string; fee: string; taker?: boolean; time: number }
  /** `executed`: the order's executed quantity as the exchange last said (its predecessors' included, after a replace). */
  | { k: 'final'; t: number; id: string; status: string; reason?: FinalReason; executed?: string }
  /** Written by compaction: counters the dropped lines held (today's client_order_id counter, intent numbers). */
  | { k: 'counters'; t: number; day?: string; counter?: number; intents: Record<string, number> }
  | { k: 'note'; t: number; event: string; [field: string]: unknown };

/** A {@link DecisionFrame} as an order line carries it. */
export interface JournaledFrame {
  readonly symbol: string;
  readonly receivedAt: number;
  readonly exchangeTime?: number;
  readonly sequence?: number;
  readonly index: number;
}

/** One journaled order and what became of it. */
export interface JournaledOrder {
  readonly info: TrackedOrderInfo;
  readonly fills: OrderFill[];
  finished: boolean;
  /** The final line's status and reason, once written. */
  final?: { readonly status: string; readonly reason?: FinalReason; readonly executed?: Decimal };
}

/** What a journal says after a restart. */
export interface RecoveredState {
  /** Every order the journal holds, finished or not, in the order they were journaled. */
  readonly orders: readonly JournaledOrder[];
  /** Where today's client_order_id counter stands (the highest id the journal saw today). */
  readonly ids: ClientOrderIdState | undefined;
  /** Lines that could not be read (a line cut off by a crash), skipped. */
  readonly skippedLines: number;
  /** Highest intent number `<strategyId>-<n>` journaled per strategy. */
  readonly intents: ReadonlyMap<string, number>;
  /** Lines read, skipped ones included. */
  readonly lines: number;
}

/** How a finished tracker ended; `replaced` also when the journal saw a replacement of it sent. */
export function finalReason(tracker: OrderTracker, replacementSent: boolean): FinalReason {
  if (tracker.unplaced !== undefined) return tracker.unplaced;
  const status = tracker.status;
  if (status === 'filled' || status === 'expired') return status;
  return tracker.replacedBy !== undefined || replacementSent ? 'replaced' : 'canceled';
}

/** The `order` line of an order (`adopted` when no request of ours made it: no send time then). */
export function orderRecord(info: TrackedOrderInfo, now: number): Extract<JournalRecord, { k: 'order' }> {
  return {
    k: 'order', t: info.sentAt ?? now, id: info.clientOrderId, intent: info.intentId, strategy: info.strategyId, symbol: info.symbol,
    side: info.side, quantity: toWire(info.quantity), list: info.orderListId, leg: info.leg, replaces: info.replaces,
    adopted: info.sentAt === undefined ? true : undefined, type: info.type, price: info.price === undefined ? undefined : toWire(info.price),
    frame: info.decidedOn === undefined ? undefined : journaledFrame(info.decidedOn),
    liquidation: info.liquidation === true ? true : undefined,
  };
}

function journaledFrame(frame: DecisionFrame): JournaledFrame {
  return { symbol: frame.symbol, receivedAt: frame.receivedAt, exchangeTime: frame.exchangeTime, sequence: frame.sequence, index: frame.index };
}

/** The decision frame of an order line; undefined when absent or not a frame (a journal from before frames). */
function decisionFrame(frame: unknown): DecisionFrame | undefined {
  if (typeof frame !== 'object' || frame === null) return undefined;
  const { symbol, receivedAt, exchangeTime, sequence, index } = frame as Record<string, unknown>;
  if (typeof symbol !== 'string' || typeof receivedAt !== 'number' || typeof index !== 'number') return undefined;
  return {
    symbol, receivedAt, index,
    ...(typeof exchangeTime === 'number' ? { exchangeTime } : {}), ...(typeof sequence === 'number' ? { sequence } : {}),
  };
}

/** The `fill` line of an execution. */
export function fillRecord(clientOrderId: string, fill: OrderFill, now: number): JournalRecord {
  return {
    k: 'fill', t: now, id: clientOrderId, trade: fill.tradeId, quantity: toWire(fill.quantity), price: toWire(fill.price),
    fee: toWire(fill.fee), taker: fill.taker, time: fill.time,
  };
}

/** Applies one record to the orders read so far (fills of orders the journal never saw placed are left out). */
export function applyRecord(orders: Map<string, JournaledOrder>, record: JournalRecord): void {
  switch (record.k) {
    case 'order':
      orders.set(record.id, {
        info: {
          clientOrderId: record.id, intentId: record.intent, strategyId: record.strategy, symbol: record.symbol, side: record.side,
          quantity: new Decimal(record.quantity), orderListId: record.list, leg: record.leg, replaces: record.replaces,
          sentAt: record.adopted === true ? undefined : record.t,
          ...(record.type === undefined ? {} : { type: record.type }),
          ...(record.price === undefined ? {} : { price: new Decimal(record.price) }),
          ...(record.frame === undefined ? {} : optional('decidedOn', decisionFrame(record.frame))),
          ...(record.liquidation === true ? { liquidation: true } : {}),
        },
        fills: [], finished: false,
      });
      return;
    case 'fill': {
      const order = orders.get(record.id);
      if (order === undefined || order.fills.some((f) => f.tradeId === record.trade)) return;
      order.fills.push({
        tradeId: record.trade, quantity: new Decimal(record.quantity), price: new Decimal(record.price), fee: new Decimal(record.fee),
        taker: record.taker, time: record.time,
      });
      return;
    }
    case 'final': {
      const order = orders.get(record.id);
      if (order === undefined) return;
      order.finished = true;
      order.final = { status: record.status, reason: record.reason, executed: record.executed === undefined ? undefined : new Decimal(record.executed) };
      return;
    }
    default:
  }
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/**
 * A final order whose executed quantity is more than the executions journaled for it and the
 * orders it replaced (trade reports lost, then the end learned from an answer) is taken as not
 * final: the restart looks it up, and the trade history books what is missing.
 */
export function reopenShortOrders(orders: ReadonlyMap<string, JournaledOrder>): void {
  for (const order of orders.values()) {
    const executed = order.final?.executed;
    if (!order.finished || executed === undefined || executed.isZero()) continue;
    let booked = ZERO;
    const seen = new Set<string>();
    for (let link: JournaledOrder | undefined = order; link !== undefined && !seen.has(link.info.clientOrderId);) {
      seen.add(link.info.clientOrderId);
      for (const fill of link.fills) booked = booked.plus(fill.quantity);
      link = link.info.replaces === undefined ? undefined : orders.get(link.info.replaces);
    }
    if (executed.greaterThan(booked)) order.finished = false;
  }
}

/** `<strategyId>-<n>`: remembers the highest n per strategy. */
export function countIntent(intents: Map<string, number>, intentId: string): void {
  const dash = intentId.lastIndexOf('-');
  const n = Number(intentId.slice(dash + 1));
  if (dash <= 0 || !Number.isSafeInteger(n)) return;
  const strategy = intentId.slice(0, dash);
  intents.set(strategy, Math.max(intents.get(strategy) ?? 0, n));
}
