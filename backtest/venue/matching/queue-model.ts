import { ValidationError } from '../../../framework/model/errors.js';

/**
 * Queue position models of a resting order: how many outside lots stand ahead of it at its price
 * level. All quantities are integer lots of outside liquidity (our own orders are never part of
 * the replayed book).
 *
 * What every model shares (applied by the market, not by the model):
 * - An outside trade at the order's price with the aggressor on the other side first eats the
 *   lots ahead; only the excess fills the order. Several of our orders at one price share a trade
 *   in arrival order, so one trade never fills more than its own quantity.
 * - New outside orders at the level join behind us: a level that grows never moves us back.
 * - Outside trade quantity at our price is counted from the time we joined; what happened before
 *   arrival is already reflected in the level's quantity.
 *
 * What a model decides: the initial position, and what a drop of the level's quantity that trades
 * do not explain (cancels) does to the lots ahead.
 */
export interface QueueModel {
  /** Short name for reports and configuration. */
  readonly name: string;
  /** Lots ahead of an order joining a level that holds `levelLots` outside lots (0 if empty). */
  aheadOnArrival(levelLots: number): number;
  /**
   * Lots ahead after the feed moved the level from `previousLots` to `nextLots`, given the lots
   * ahead before the update and the outside trade quantity printed at the price since the level's
   * previous update (`tradedLots`, already deducted from `ahead`). Must return an integer in
   * `[0, min(ahead, nextLots)]`.
   */
  aheadAfterDepthChange(ahead: number, previousLots: number, nextLots: number, tradedLots: number): number;
}

/**
 * The default, "trades only, conservative" model: we join behind the whole level and only
 * trades at our price move us forward. A cancel moves us only when the level becomes smaller than
 * what we think is ahead (then at least the ahead must have shrunk to the level: clamp). This
 * assumes every cancel comes from behind us, the worst case, so fills come late, never early.
 */
export class TradesOnlyQueueModel implements QueueModel {
  readonly name = 'trades-only';

  aheadOnArrival(levelLots: number): number {
    return levelLots;
  }

  aheadAfterDepthChange(ahead: number, _previousLots: number, nextLots: number): number {
    return ahead < nextLots ? ahead : nextLots;
  }
}

/**
 * "Proportional" cancels, after hftbacktest's probability queue model with a linear weight: a
 * drop of the level not explained by trades (`previous - next - traded`) is spread over the level
 * in proportion to where the lots stand, so the part taken from ahead of us is
 * `cancelled * ahead / previous`, rounded down (our position improves a little less, never more).
 * When the share from behind would exceed what is behind us, the rest comes from ahead. A drop
 * smaller than the traded quantity (the feed not yet showing the trades) only clamps, as in the
 * conservative model. Deterministic: no random draw, integers only.
 */
export class ProportionalQueueModel implements QueueModel {
  readonly name = 'proportional';

  aheadOnArrival(levelLots: number): number {
    return levelLots;
  }

  aheadAfterDepthChange(ahead: number, previousLots: number, nextLots: number, tradedLots: number): number {
    return afterCancels(ahead, previousLots, nextLots, tradedLots, (cancelled, behind) => shareOf(cancelled, ahead, ahead + behind));
  }
}

/**
 * Probabilistic cancels, after hftbacktest's ProbQueueModel: a drop of the level not explained by
 * trades is taken from ahead of us with probability `1 - f(behind) / (f(behind) + f(ahead))`, so
 * cancels fall where the weight `f` puts them. `f(x) = x^n` (`power`, n > 0: n = 1 is the
 * proportional model, larger n puts cancels further from the front) or `f(x) = ln(1 + x)` (`log`:
 * cancels spread more evenly than linear). The share from ahead is rounded down (our position
 * improves a little less, never more); when the share from behind exceeds what is behind us the
 * rest comes from ahead; a drop smaller than the traded quantity only clamps. Deterministic: the
 * expected share is applied, no random draw. Assumptions: our orders never count in the level,
 * and cancels are independent of the time orders joined.
 */
export class ProbabilisticQueueModel implements QueueModel {
  constructor(
    readonly name: string,
    private readonly weight: (lots: number) => number,
  ) {}

  aheadOnArrival(levelLots: number): number {
    return levelLots;
  }

  aheadAfterDepthChange(ahead: number, previousLots: number, nextLots: number, tradedLots: number): number {
    return afterCancels(ahead, previousLots, nextLots, tradedLots, (cancelled, behind) => {
      const front = this.weight(ahead);
      const back = this.weight(behind);
      return Math.floor(cancelled * (front + back > 0 ? front / (front + back) : 1));
    });
  }
}

/**
 * The lots ahead after a depth change, for models that spread cancels: the drop trades do not
 * explain is split by `fromAhead(cancelled, behind)` (rounded down by the model); a share from
 * behind beyond what is behind comes from ahead; the result is clamped to the level.
 */
function afterCancels(
  ahead: number, previousLots: number, nextLots: number, tradedLots: number, fromAheadOf: (cancelled: number, behind: number) => number,
): number {
  const cancelled = previousLots - nextLots - tradedLots;
  let estimate = ahead;
  if (cancelled > 0 && ahead > 0) {
    const behind = previousLots > ahead ? previousLots - ahead : 0;
    let fromAhead = fromAheadOf(cancelled, behind);
    const fromBehind = cancelled - fromAhead;
    if (fromBehind > behind) fromAhead += fromBehind - behind;
    estimate = ahead > fromAhead ? ahead - fromAhead : 0;
  }
  return estimate < nextLots ? estimate : nextLots;
}

/** The queue model a config or CLI names: `trades-only`, `proportional`, `log`, or `power:N` (N > 0). */
export function queueModelNamed(name: string, field = 'queueModel'): QueueModel {
  if (name === 'trades-only') return TRADES_ONLY_QUEUE;
  if (name === 'proportional') return PROPORTIONAL_QUEUE;
  if (name === 'log') return new ProbabilisticQueueModel('log', Math.log1p);
  const power = /^power:(\d+(?:\.\d+)?)$/.exec(name);
  const n = power === null ? Number.NaN : Number(power[1]);
  if (n > 0 && Number.isFinite(n)) return new ProbabilisticQueueModel(`power:${n}`, (lots) => lots ** n);
  throw new ValidationError(field, 'must be trades-only, proportional, log or power:N (N > 0)', name);
}

/** floor(amount * part / whole) exactly, also when the product is beyond 2^53. */
function shareOf(amount: number, part: number, whole: number): number {
  const product = amount * part;
  if (product <= Number.MAX_SAFE_INTEGER) return (product - (product % whole)) / whole;
  return Number((BigInt(amount) * BigInt(part)) / BigInt(whole));
}

/** The default queue model instance (stateless, shareable). */
export const TRADES_ONLY_QUEUE: QueueModel = new TradesOnlyQueueModel();

/** The proportional queue model instance (stateless, shareable). */
export const PROPORTIONAL_QUEUE: QueueModel = new ProportionalQueueModel();
