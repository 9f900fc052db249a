import { closeSync, existsSync, fsync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { ClientOrderIdGenerator } from '../execution/client-order-ids.js';
import { utcDay } from '../execution/client-order-ids.js';
import type { OrderFill, OrderTracker, TrackedOrderInfo } from '../execution/order-tracker.js';
import { toWire } from '../model/decimal.js';
import type { KernelHooks } from '../runtime/bot-kernel.js';
import type { IntentVerdict } from '../runtime/trading-pipeline.js';
import { compactedRecords, rewriteAtomically } from './journal-compaction.js';
import {
  applyRecord, countIntent, fillRecord, finalReason, orderRecord, reopenShortOrders, type JournaledOrder, type JournalRecord, type RecoveredState,
} from './journal-records.js';

export type { FinalReason, JournaledOrder, RecoveredState } from './journal-records.js';

/** What {@link Journal.open} did to a long journal. */
export interface JournalCompaction {
  readonly linesBefore: number;
  readonly linesAfter: number;
  /** Why the rewrite failed (the journal is then left as it was). */
  readonly failed?: string;
}

/** Options of {@link Journal}. */
export interface JournalOptions {
  readonly dir: string;
  readonly botId: string;
  /** How often written records are fsynced (ms); 0 fsyncs every record. */
  readonly syncEveryMs?: number;
  /**
   * false: never fsync (records still leave with one `write(2)` each, so a killed process loses
   * nothing); for journals of simulated exchanges, which an operating-system crash cannot hurt.
   * Default true.
   */
  readonly durable?: boolean;
  readonly now: () => number;
}

/**
 * The bot's append-only journal (JSON lines, `<dir>/<botId>.journal.jsonl`): every order before
 * its request leaves (client_order_id, intent, strategy, list leg), every intent verdict, every
 * execution, and for every order one final line with its status and why it ended (filled,
 * canceled, expired, rejected, never-existed, replaced), written when the bot learns it, whatever
 * taught it. After a restart, even after kill -9, {@link recover} gives the orders that may be live
 * and the executions already booked; the kernel restores them and the reconciliation settles each
 * order not final against the exchange (final ones need no lookup), so nothing is placed twice or
 * forgotten. {@link open} compacts what a restart no longer needs, atomically.
 *
 * Durability: each record is written with one `write(2)` as it happens, so a killed process loses
 * nothing it wrote; records reach the disk with an `fsync` (in the background, off the event loop)
 * every `syncEveryMs` (100 ms by default; 0: a blocking `fsync` after every record) and at close,
 * which bounds what an operating-system crash can lose. A journal that is not `durable` never
 * fsyncs.
 */
export class Journal implements KernelHooks {
  readonly file: string;
  private fd: number | undefined;
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  /** What the last {@link recover} with an id generator read: {@link open} compacts to it. */
  private recovered: RecoveredState | undefined;
  /** Orders a replacement was sent for (while that replacement may still be made): they end as `replaced`. */
  private readonly replaced = new Set<string>();

  constructor(private readonly options: JournalOptions) {
    mkdirSync(options.dir, { recursive: true });
    this.file = path.join(options.dir, `${options.botId}.journal.jsonl`);
  }

  /**
   * Reads what an earlier run left (nothing when there is no journal yet). With `ids`, the next
   * {@link open} compacts the journal to what this state needs (see {@link compactedRecords}).
   */
  recover(ids?: ClientOrderIdGenerator): RecoveredState {
    this.recovered = undefined;
    if (!existsSync(this.file)) return { orders: [], ids: undefined, skippedLines: 0, intents: new Map(), lines: 0 };
    const intents = new Map<string, number>();
    const orders = new Map<string, JournaledOrder>();
    let skippedLines = 0;
    let lines = 0;
    const today = utcDay(this.options.now());
    let counter = 0;
    for (const line of readFileSync(this.file, 'utf8').split('\n')) {
      if (line.length === 0) continue;
      lines++;
      let record: JournalRecord;
      try {
        record = JSON.parse(line) as JournalRecord;
      } catch {
        skippedLines++;
        continue;
      }
      applyRecord(orders, record);
      if ((record.k === 'intent' || record.k === 'denied') && typeof record.intent === 'string') countIntent(intents, record.intent);
      else if (record.k === 'counters') {
        for (const [strategy, n] of Object.entries(record.intents)) intents.set(strategy, Math.max(intents.get(strategy) ?? 0, n));
        if (record.day === today && record.counter !== undefined) counter = Math.max(counter, record.counter);
      } else if (record.k === 'order' && ids !== undefined) {
        const parsed = ids.parse(record.id);
        if (parsed !== undefined && parsed.day === today) counter = Math.max(counter, parsed.counter);
      }
    }
    reopenShortOrders(orders);
    const state = { orders: [...orders.values()], ids: counter > 0 ? { day: today, counter } : undefined, skippedLines, intents, lines };
    for (const order of state.orders) if (!order.finished && order.info.replaces !== undefined) this.replaced.add(order.info.replaces);
    if (ids !== undefined) this.recovered = state;
    return state;
  }

  /**
   * Opens the file for appending and writes a start mark. After a {@link recover} with the id
   * generator, the journal is first compacted (atomically) when that drops lines: a restart reads
   * the orders that matter, not the whole history. A compaction that fails (disk full) leaves the
   * journal as it was, and says so; the bot runs on, appending to it.
   */
  open(): JournalCompaction | undefined {
    const state = this.recovered;
    this.recovered = undefined;
    let compaction: JournalCompaction | undefined;
    if (state !== undefined && existsSync(this.file)) {
      const records = compactedRecords(state, this.options.now());
      if (records.length < state.lines) {
        compaction = { linesBefore: state.lines, linesAfter: records.length };
        try {
          rewriteAtomically(this.file, records);
        } catch (error) {
          compaction = { ...compaction, failed: error instanceof Error ? error.message : String(error) };
        }
      }
    }
    this.fd = openSync(this.file, 'a');
    this.write({ k: 'start', t: this.options.now(), pid: process.pid });
    return compaction;
  }

  onTrack(info: TrackedOrderInfo): void {
    if (info.replaces !== undefined) this.replaced.add(info.replaces);
    this.write(orderRecord(info, this.options.now()));
    // The order must be on disk before its request can reach the exchange.
    this.sync();
  }

  /**
   * An adopted order is journaled too, so its executions and its end survive a restart. It carries
   * no send time of ours: a restart looks it up rather than searching the history by time.
   */
  onAdopt(info: TrackedOrderInfo): void {
    this.write({ ...orderRecord(info, this.options.now()), adopted: true });
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
    this.write(fillRecord(info.clientOrderId, fill, this.options.now()));
  }

  /**
   * The final line of an order, whatever taught the bot that it ended: a report, a request's
   * answer (a cancel, or a replace for the order it replaced), a refusal, a lookup at
   * reconciliation (found final, or never made). The account tells each order once.
   */
  onOrderFinished(tracker: OrderTracker): void {
    const id = tracker.clientOrderId;
    const reason = finalReason(tracker, this.replaced.has(id));
    this.replaced.delete(id);
    // A refused replacement leaves the order it was to replace in place.
    if (tracker.unplaced !== undefined && tracker.info.replaces !== undefined) this.replaced.delete(tracker.info.replaces);
    this.write({ k: 'final', t: this.options.now(), id, status: tracker.status, reason, executed: toWire(tracker.quantityCumulative) });
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
    if (this.options.durable !== false) fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = undefined;
  }

  private write(record: JournalRecord): void {
    if (this.fd === undefined) return;
    writeSync(this.fd, `${JSON.stringify(record)}\n`);
    if (this.options.durable === false) return;
    this.dirty = true;
    const every = this.options.syncEveryMs ?? 100;
    if (every <= 0) this.sync();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.syncInBackground();
      }, every);
      this.timer.unref();
    }
  }

  private sync(): void {
    if (this.fd === undefined || !this.dirty) return;
    fsyncSync(this.fd);
    this.dirty = false;
  }

  /**
   * The periodic fsync runs off the event loop: every record is already with the operating system
   * (a killed process loses nothing), and a flush that waits on the disk must not hold up the bot's
   * next event by milliseconds. A failed flush marks the journal dirty again, for the next one.
   */
  private syncInBackground(): void {
    if (this.fd === undefined || !this.dirty) return;
    this.dirty = false;
    fsync(this.fd, (error) => {
      if (error !== null && this.fd !== undefined) this.dirty = true;
    });
  }
}
