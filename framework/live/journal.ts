import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { ClientOrderIdGenerator, ClientOrderIdState } from '../execution/client-order-ids.js';
import { utcDay } from '../execution/client-order-ids.js';
import { isTerminal, type OrderFill, type TrackedOrderInfo } from '../execution/order-tracker.js';
import { Decimal, toWire } from '../model/decimal.js';
import type { Side } from '../model/instrument.js';
import type { OrderUpdateReport } from '../model/strategy-report.js';
import type { KernelHooks } from '../runtime/bot-kernel.js';
import type { IntentVerdict } from '../runtime/trading-pipeline.js';


/** One journaled order and what became of it. */
export interface JournaledOrder {
  readonly info: TrackedOrderInfo;
  readonly fills: OrderFill[];
  finished: boolean;
}

/** What a journal says after a restart. */
export interface RecoveredState {
  readonly orders: readonly JournaledOrder[];
  /** Where today's client_order_id counter stands (the highest id the journal saw today). */
  readonly ids: ClientOrderIdState | undefined;
  /** Lines that could not be read (a line cut off by a crash), skipped. */
  readonly skippedLines: number;
  /** Highest intent number `<strategyId>-<n>` journaled per strategy. */
  readonly intents: ReadonlyMap<string, number>;
}

/** Options of {@link Journal}. */
export interface JournalOptions {
  readonly dir: string;
  readonly botId: string;
  /** How often written records are fsynced (ms); 0 fsyncs every record. */
  readonly syncEveryMs?: number;
  readonly now: () => number;
}

/**
 * The bot's append-only journal (JSON lines, `<dir>/<botId>.journal.jsonl`): every order before
 * its request leaves (client_order_id, intent, strategy, list leg), every intent verdict, every
 * execution and every final status. After a restart, even after kill -9, {@link recover} gives the
 * orders that may be live and the executions already booked; the kernel restores them and the
 * reconciliation settles each against the exchange, so nothing is placed twice or forgotten.
 *
 * Durability: each record is written with one `write(2)` as it happens, so a killed process loses
 * nothing it wrote; records reach the disk with `fsync` every `syncEveryMs` (100 ms by default)
 * and at close, which bounds what an operating-system crash can lose.
 */
export class Journal implements KernelHooks {
  readonly file: string;
  private fd: number | undefined;
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: JournalOptions) {
    mkdirSync(options.dir, { recursive: true });
    this.file = path.join(options.dir, `${options.botId}.journal.jsonl`);
  }

  /** Reads what an earlier run left (nothing when there is no journal yet). */
  recover(ids?: ClientOrderIdGenerator): RecoveredState {
    if (!existsSync(this.file)) return { orders: [], ids: undefined, skippedLines: 0, intents: new Map() };
    const intents = new Map<string, number>();
    const orders = new Map<string, JournaledOrder>();
    let skippedLines = 0;
    const today = utcDay(this.options.now());
    let counter = 0;
    for (const line of readFileSync(this.file, 'utf8').split('\n')) {
      if (line.length === 0) continue;
      let record: JournalRecord;
      try {
        record = JSON.parse(line) as JournalRecord;
      } catch {
        skippedLines++;
        continue;
      }
      applyRecord(orders, record);
      if ((record.k === 'intent' || record.k === 'denied') && typeof record.intent === 'string') countIntent(intents, record.intent);
      if (record.k === 'order' && ids !== undefined) {
        const parsed = ids.parse(record.id);
        if (parsed !== undefined && parsed.day === today) counter = Math.max(counter, parsed.counter);
      }
    }
    return { orders: [...orders.values()], ids: counter > 0 ? { day: today, counter } : undefined, skippedLines, intents };
  }

  /** Opens the file for appending and writes a start mark. */
  open(): void {
    this.fd = openSync(this.file, 'a');
    this.write({ k: 'start', t: this.options.now(), pid: process.pid });
  }

  onTrack(info: TrackedOrderInfo): void {
    this.write({
      k: 'order', t: this.options.now(), id: info.clientOrderId, intent: info.intentId, strategy: info.strategyId, symbol: info.symbol,
      side: info.side, quantity: toWire(info.quantity), list: info.orderListId, leg: info.leg, replaces: info.replaces,
    });
    // The order must be on disk before its request can reach the exchange.
    this.sync();
  }

  onVerdict(verdict: IntentVerdict): void {
    const intent = verdict.intent;
    if (verdict.kind === 'denied') {
      this.write({ k: 'denied', t: this.options.now(), intent: intent.intentId, check: verdict.check, reason: verdict.reason });
      return;
    }
    this.write({ k: 'intent', t: this.options.now(), intent: intent.intentId, kind: intent.kind, strategy: intent.strategyId, tag: intent.tag });
  }

  /** Every execution, whatever reported it (stream, answer, or a lookup after a restart). */
  onFill(info: TrackedOrderInfo, fill: OrderFill): void {
    this.write({
      k: 'fill', t: this.options.now(), id: info.clientOrderId, trade: fill.tradeId, quantity: toWire(fill.quantity), price: toWire(fill.price),
      fee: toWire(fill.fee), taker: fill.taker, time: fill.time,
    });
  }

  onOrderUpdate(update: OrderUpdateReport): void {
    const r = update.report;
    if (isTerminal(r.status) || r.report_type === 'rejected') this.write({ k: 'final', t: this.options.now(), id: r.client_order_id, status: r.status });
  }

  /** A free-form mark (reconciliation summaries, shutdown). */
  note(event: string, fields: Readonly<Record<string, unknown>> = {}): void {
    this.write({ k: 'note', t: this.options.now(), event, ...fields });
  }

  /** Flushes to disk and closes the file. */
  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.fd === undefined) return;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = undefined;
  }

  private write(record: JournalRecord): void {
    if (this.fd === undefined) return;
    writeSync(this.fd, `${JSON.stringify(record)}\n`);
    this.dirty = true;
    const every = this.options.syncEveryMs ?? 100;
    if (every <= 0) this.sync();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.sync();
      }, every);
      this.timer.unref();
    }
  }

  private sync(): void {
    if (this.fd === undefined || !this.dirty) return;
    fsyncSync(this.fd);
    this.dirty = false;
  }
}

type JournalRecord =
  | { k: 'start'; t: number; pid: number }
  | { k: 'order'; t: number; id: string; intent?: string; strategy?: string; symbol: string; side: Side; quantity: string; list?: string; leg?: number; replaces?: string }
  | { k: 'intent'; t: number; intent: string; kind: string; strategy: string; tag?: string }
  | { k: 'denied'; t: number; intent: string; check: string; reason: string }
  | { k: 'fill'; t: number; id: string; trade: string; quantity: string; price: string; fee: string; taker?: boolean; time: number }
  | { k: 'final'; t: number; id: string; status: string }
  | { k: 'note'; t: number; event: string; [field: string]: unknown };

/** `<strategyId>-<n>`: remembers the highest n per strategy. */
function countIntent(intents: Map<string, number>, intentId: string): void {
  const dash = intentId.lastIndexOf('-');
  const n = Number(intentId.slice(dash + 1));
  if (dash <= 0 || !Number.isSafeInteger(n)) return;
  const strategy = intentId.slice(0, dash);
  intents.set(strategy, Math.max(intents.get(strategy) ?? 0, n));
}

function applyRecord(orders: Map<string, JournaledOrder>, record: JournalRecord): void {
  switch (record.k) {
    case 'order':
      orders.set(record.id, {
        info: {
          clientOrderId: record.id, intentId: record.intent, strategyId: record.strategy, symbol: record.symbol, side: record.side,
          quantity: new Decimal(record.quantity), orderListId: record.list, leg: record.leg, replaces: record.replaces,
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
      if (order !== undefined) order.finished = true;
      return;
    }
    default:
  }
}
