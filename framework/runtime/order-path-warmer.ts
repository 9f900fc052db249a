import { interval, type SchedulerLike, type Subscription } from 'rxjs';
import { ValidationError } from '../model/errors.js';
import type { Intent, PlaceIntent, ReplaceIntent } from '../model/intent.js';
import type { RiskGate } from '../risk/risk-gate.js';
import type { RiskView } from '../risk/risk-state.js';
import type { StandingRehearsal } from './order-path-rehearsal.js';

/** Longest interval {@link OrderPathWarmer} takes (ms): beyond it the path goes cold between runs anyway. */
export const MAX_WARM_INTERVAL_MS = 1000;

/** Open orders a warm-up run replaces in its dry runs, at most (bounds its cost on a bot with many orders). */
export const WARM_ORDERS_PER_RUN = 4;

/** The intent id of dry runs made before any real replace (never sent: a dry run reserves and counts nothing). */
const WARM_INTENT_ID = 'warm-up';

/**
 * Keeps a live bot's order path warm. A bot that sends a few intents a second spends nearly all its
 * time waiting, and each real intent then runs through code the JIT has barely seen and data the
 * caches no longer hold: measured against the sandbox, the risk gate took tens of microseconds per
 * intent live where a loop runs it in under two. Every `intervalMs` (on the `timers` scheduler,
 * whose timers fire when the event loop is idle, so a run never delays an event already queued):
 * - the {@link StandingRehearsal}, when the bot has one, is shown one more synthetic book: the
 *   whole way from a strategy's intent to a venue port and back, in a kernel of the bot's classes
 *   that touches nothing of the bot (see order-path-rehearsal.ts);
 * - the risk checks of the bot's usual intents run as dry runs on the bot's own gate and state
 *   ({@link RiskGate.dryRun}, which reserves nothing and counts nothing): a replace of each open
 *   order (up to {@link WARM_ORDERS_PER_RUN}) at its own price and quantity, and the last place
 *   intent that passed, as it was. The verdicts are thrown away. The bot's intents pass through
 *   {@link passed} so the dry runs copy them.
 *
 * Cost, measured on a market maker with two quotes: a rehearsal book ~0.3 ms of CPU, dry runs a
 * few microseconds; at 5 ms ~7% of a core in all, at 20 ms ~3%. One event that arrives during a
 * run waits for it. Live only: a backtest has no idle time.
 */
export class OrderPathWarmer {
  private subscription: Subscription | undefined;
  private lastPlace: PlaceIntent | undefined;
  /** The last replace that passed: dry runs are copies of it (same fields, so the checks see the shape they know). */
  private lastReplace: ReplaceIntent | undefined;
  private runs = 0;
  private booksShown = 0;
  private rehearsal: StandingRehearsal | undefined;

  /**
   * `onError` is told when a run throws (a check failing on the bot's own kind of intent, a
   * rehearsal book failing): the warm-up then stops for good, its standing rehearsal with it,
   * rather than fail again every interval; trading goes on.
   */
  constructor(
    private readonly gate: RiskGate,
    private readonly view: RiskView,
    private readonly scheduler: SchedulerLike,
    readonly intervalMs: number,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    if (!Number.isInteger(intervalMs) || intervalMs < 1 || intervalMs > MAX_WARM_INTERVAL_MS) {
      throw new ValidationError('keepOrderPathWarmMs', `must be an integer from 1 to ${MAX_WARM_INTERVAL_MS} (ms)`, intervalMs);
    }
  }

  /** Dry runs made so far (for status lines and benchmarks). */
  get dryRuns(): number {
    return this.runs;
  }

  /** Books shown to the standing rehearsal by this warmer so far. */
  get rehearsalBooks(): number {
    return this.booksShown;
  }

  /**
   * Starts the periodic runs (again after a stop), with `rehearsal` shown a book each run (the
   * warmer stops it when it stops).
   */
  start(rehearsal?: StandingRehearsal): void {
    if (rehearsal !== undefined) this.rehearsal = rehearsal;
    this.subscription ??= interval(this.intervalMs, this.scheduler).subscribe(() => this.run());
  }

  /** Stops them and the standing rehearsal; resolves once that one has stopped. */
  stop(): Promise<void> {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
    const rehearsal = this.rehearsal;
    this.rehearsal = undefined;
    return rehearsal === undefined ? Promise.resolve() : rehearsal.stop();
  }

  /** An intent passed the gate: the last place and the last replace are the models of the dry runs. */
  passed(intent: Intent): void {
    if (intent.kind === 'place') this.lastPlace = intent;
    else if (intent.kind === 'replace') this.lastReplace = intent;
  }

  /** One run: a book for the standing rehearsal, then the dry runs. */
  run(): void {
    try {
      if (this.rehearsal !== undefined) {
        if (!this.rehearsal.step()) throw new Error('the standing rehearsal stopped taking books: its strategy halted');
        this.booksShown++;
      }
      this.dryRunAll();
    } catch (error) {
      this.stop().catch(() => undefined);
      this.onError(error);
    }
  }

  private dryRunAll(): void {
    const open = this.view.openOrders();
    for (let i = 0; i < open.length && i < WARM_ORDERS_PER_RUN; i++) {
      const order = open[i]!;
      const model = this.lastReplace;
      this.gate.dryRun(model === undefined
        ? { kind: 'replace', intentId: WARM_INTENT_ID, strategyId: '', clientOrderId: order.clientOrderId, quantity: order.quantity, price: order.price }
        : { ...model, clientOrderId: order.clientOrderId, quantity: order.quantity, price: order.price }, this.view);
      this.runs++;
    }
    if (this.lastPlace !== undefined) {
      this.gate.dryRun(this.lastPlace, this.view);
      this.runs++;
    }
  }
}
