import { isRetryableFailure } from '../execution/unknown-outcome.js';
import type { RuntimeLogger } from '../runtime/runtime-ports.js';

/** How a start-up step is retried (see {@link retryStartStep}). */
export interface StartStepOptions {
  /** What the step does, for the log (`fetching the instruments`). */
  readonly what: string;
  readonly logger: RuntimeLogger;
  /** Milliseconds since some origin (the bot's clock). */
  readonly now: () => number;
  /** Waits `ms`; resolves early, to `false`, when the bot is asked to stop. */
  readonly pause: (ms: number) => Promise<boolean>;
  /** How long the step may keep failing before its failure ends the start-up (default 30 s). */
  readonly budgetMs?: number;
  /** First pause (default 250 ms); each next one doubles, up to 4 s. */
  readonly firstDelayMs?: number;
}

const MAX_DELAY_MS = 4_000;

/**
 * Runs a start-up step (fetching the instruments, subscribing the market data) until it succeeds,
 * waiting out what the exchange says will pass (429, 5xx, a connection dropped mid-request): a
 * burst of refusals at start-up is weathered the way the bot weathers it later, instead of ending
 * the process. A failure that is final (a bad symbol, bad keys), or still failing past the budget,
 * is thrown. Resolves to undefined when the bot is asked to stop during a pause.
 */
export async function retryStartStep<T>(step: () => Promise<T>, options: StartStepOptions): Promise<T | undefined> {
  const started = options.now();
  const budget = options.budgetMs ?? 30_000;
  for (let delay = options.firstDelayMs ?? 250; ; delay = Math.min(delay * 2, MAX_DELAY_MS)) {
    try {
      return await step();
    } catch (error) {
      if (!isRetryableFailure(error) || options.now() - started + delay > budget) throw error;
      options.logger.log('warn', `${options.what} failed; trying again`, { error: error instanceof Error ? error.message : String(error), inMs: delay });
      if (!(await options.pause(delay))) return undefined;
    }
  }
}
