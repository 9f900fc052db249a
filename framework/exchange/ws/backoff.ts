import { ValidationError } from '../../model/errors.js';

/** Tuning of the reconnect delay. */
export interface BackoffOptions {
  /** Ceiling of the first delay, ms. */
  readonly initialMs: number;
  /** Upper bound of any delay, ms. */
  readonly maxMs: number;
  /** Growth of the ceiling per failed attempt. */
  readonly factor: number;
}

/** Defaults: 250 ms, doubling, at most 30 s. */
export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 250, maxMs: 30_000, factor: 2 };

/**
 * Exponential backoff with full jitter: a uniform draw in [0, min(maxMs, initialMs * factor^attempt)).
 * Full jitter spreads the reconnects of many clients after a shared outage instead of having them
 * hammer the exchange in lockstep. `random` is injected so tests and replays are deterministic.
 */
export function backoffDelay(attempt: number, options: BackoffOptions, random: () => number): number {
  const exponent = Math.max(0, Math.floor(attempt));
  // Beyond ~60 doublings the product overflows to Infinity; min() caps it anyway.
  const ceiling = Math.min(options.maxMs, options.initialMs * Math.pow(options.factor, exponent));
  const draw = random();
  const unit = Number.isFinite(draw) ? Math.min(Math.max(draw, 0), 1) : 0;
  return Math.floor(unit * ceiling);
}

/** Rejects backoff settings that would spin (zero or negative) or never grow. */
export function validateBackoff(options: BackoffOptions, field = 'backoff'): BackoffOptions {
  if (!(options.initialMs > 0)) throw new ValidationError(`${field}.initialMs`, 'must be greater than 0', options.initialMs);
  if (!(options.maxMs >= options.initialMs)) throw new ValidationError(`${field}.maxMs`, 'must be at least initialMs', options.maxMs);
  if (!(options.factor >= 1)) throw new ValidationError(`${field}.factor`, 'must be at least 1', options.factor);
  return options;
}
