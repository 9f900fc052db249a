import { ZERO } from '../model/decimal.js';
import type { Intent } from '../model/intent.js';
import type { RuntimeState } from './runtime-state.js';
import type { RuntimeStrategyContext } from './strategy-context.js';
import type { Intents, Submittable } from './strategy.js';

/** What an {@link IntentOutbox} hands intents to and counts them in. */
export interface OutboxTarget {
  readonly strategyId: string;
  /** Takes a stamped intent (the risk gate, then the venue). */
  submit(intent: Intent): void;
  /** Counts one intent handed on. */
  counted(): void;
  nextClientOrderId(): string;
  /** Sends what the intents handed on so far left held at the venue (once per handler's intents). */
  flush(): void;
}

/**
 * A strategy's intents on their way out of its handlers. While a handler runs, what `ctx.submit`
 * and the builders take is collected; when it returns, the collected intents go first, then the
 * returned ones, each intent once (returned handles add nothing: their builder already collected
 * the intent). An intent goes out stamped with the strategy's id and, when hand-made, with an
 * intent id and the client_order_ids (and handles) of the orders it makes.
 */
export class IntentOutbox<Params> {
  private collecting = false;
  private readonly collected: Intent[] = [];
  private readonly idPrefix: string;

  constructor(
    private readonly target: OutboxTarget,
    private readonly state: RuntimeState,
    private readonly context: RuntimeStrategyContext<Params>,
  ) {
    this.idPrefix = `${target.strategyId}-`;
  }

  /** A handler starts: what it submits is collected. */
  open(): void {
    this.collecting = true;
  }

  /** The handler failed: what it built is dropped, with its handles. */
  drop(): void {
    this.collecting = false;
    for (const intent of this.collected.splice(0)) this.state.discard(intent);
  }

  /**
   * The handler returned `returned`: everything it submitted and returned goes out, then the
   * venue is told to send what it holds of them (together, none waiting for another's send).
   */
  close(returned: Intents): void {
    this.collecting = false;
    if (this.handOn(returned)) this.target.flush();
  }

  /** {@link close}'s intents handed on; false when there were none. */
  private handOn(returned: Intents): boolean {
    const collected = this.collected;
    // The builders' usual case (a market maker's replaces, returned as handles): the returned
    // handles add nothing, and the collected intents go in order without a combined list.
    // Taken out of the outbox before any is sent: what sending sets off must not find them there.
    if (collected.length === 1 && holdsNoIntent(returned)) {
      const only = collected[0]!;
      collected.length = 0;
      this.send(only);
      return true;
    }
    if (collected.length > 1 && holdsNoIntent(returned)) return this.sendAll(collected.splice(0), undefined) > 0;
    const submitted = collected.length > 0 ? collected.splice(0) : undefined;
    if (submitted === undefined) {
      if (returned === undefined) return false;
      if (!isList(returned)) {
        if (!isIntent(returned)) return false;
        this.send(returned);
        return true;
      }
      // Most handler calls return no intent or one (a book update that moves one quote): nothing to de-duplicate.
      if (returned.length <= 1) {
        const only = returned[0];
        if (only === undefined || !isIntent(only)) return false;
        this.send(only);
        return true;
      }
    }
    // One submitted intent that is also what the handler returned (nothing returned was handled above).
    if (submitted !== undefined && submitted.length === 1 && returned === submitted[0]) {
      this.send(submitted[0]!);
      return true;
    }
    return this.sendAll(submitted ?? [], returned) > 0;
  }

  /**
   * `ctx.submit` and the builders: collected inside a handler; outside one (a deferred call) sent
   * at once while `running`, dropped otherwise.
   */
  take(intents: readonly Intent[], running: boolean): void {
    if (this.collecting) {
      for (const intent of intents) this.collected.push(intent);
      return;
    }
    if (!running) {
      for (const intent of intents) this.state.discard(intent);
      return;
    }
    if (this.sendAll(intents, undefined) > 0) this.target.flush();
  }

  /**
   * Hands one intent on, with this strategy's id stamped when it lacks one and, for a hand-made
   * intent that creates orders, client_order_ids (and handles) fixed now.
   */
  send(intent: Intent): void {
    let stamped = intent.strategyId === this.target.strategyId && intent.intentId.startsWith(this.idPrefix)
      ? intent
      : { ...intent, strategyId: this.target.strategyId, intentId: this.context.nextIntentId() };
    if (needsOrderIds(stamped)) stamped = this.withOrderIds(stamped);
    this.target.counted();
    this.state.sent(stamped);
    this.target.submit(stamped);
  }

  /** Submitted intents first, then returned ones; an intent both submitted and returned goes once. Returns how many went. */
  private sendAll(submitted: readonly Intent[], returned: Intents): number {
    const all: readonly Submittable[] = returned === undefined ? submitted : [...submitted, ...(isList(returned) ? returned : [returned])];
    // A handler's few intents are compared directly; a Set only pays for itself on long lists.
    const sent = all.length > 8 ? new Set<Submittable>() : undefined;
    let count = 0;
    for (let i = 0; i < all.length; i++) {
      const item = all[i]!;
      if (!isIntent(item) || (sent !== undefined ? sent.has(item) : all.indexOf(item) < i)) continue;
      sent?.add(item);
      this.send(item);
      count++;
    }
    return count;
  }

  private withOrderIds(intent: Intent): Intent {
    const next = (): string => this.target.nextClientOrderId();
    switch (intent.kind) {
      case 'place': {
        const placed = { ...intent, clientOrderId: next() };
        this.state.createHandle(placed, placed.clientOrderId, placed);
        return placed;
      }
      case 'closePosition': {
        const closing = { ...intent, clientOrderId: next() };
        const held = this.context.position(intent.symbol)?.quantity ?? ZERO;
        this.state.createHandle(closing, closing.clientOrderId, {
          symbol: intent.symbol, side: held.isNegative() ? 'buy' : 'sell', type: intent.price === undefined ? 'market' : 'limit', quantity: held.abs(), price: intent.price,
        });
        return closing;
      }
      case 'orderList': {
        const list = { ...intent, clientOrderIds: intent.orders.map(() => next()) };
        list.orders.forEach((spec, leg) => this.state.createHandle(list, list.clientOrderIds[leg]!, spec, leg));
        return list;
      }
      case 'replace':
        return { ...intent, newClientOrderId: next() };
      default:
        return intent;
    }
  }
}

function isList(value: Intents): value is readonly Submittable[] {
  return Array.isArray(value);
}

/** Nothing returned, or handles only (their builders collected the intents already). */
function holdsNoIntent(returned: Intents): boolean {
  if (returned === undefined) return true;
  if (!isList(returned)) return !isIntent(returned);
  for (let i = 0; i < returned.length; i++) if (isIntent(returned[i]!)) return false;
  return true;
}

/** Intents are tagged by `kind`; handles are not. */
function isIntent(value: Submittable): value is Intent {
  return 'kind' in value;
}

function needsOrderIds(intent: Intent): boolean {
  switch (intent.kind) {
    case 'place':
    case 'closePosition':
      return intent.clientOrderId === undefined;
    case 'orderList':
      return intent.clientOrderIds === undefined;
    case 'replace':
      return intent.newClientOrderId === undefined;
    default:
      return false;
  }
}
