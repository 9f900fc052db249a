import { describe, expect, it } from 'vitest';
import { ExchangeError, RateLimitError } from '../../framework/exchange/errors.js';
import { retryStartStep, type StartStepOptions } from '../../framework/live/start-step.js';
import { ValidationError } from '../../framework/model/errors.js';
import { SILENT_LOGGER } from '../../framework/runtime/runtime-ports.js';

/** A clock that moves only by the pauses taken; `stopAt` makes the pause of that index report a stop. */
function options(pauses: number[], stopAt = -1, budgetMs?: number): StartStepOptions {
  let now = 0;
  return {
    what: 'fetching', logger: SILENT_LOGGER, now: () => now, budgetMs,
    pause: async (ms) => {
      pauses.push(ms);
      now += ms;
      return pauses.length - 1 !== stopAt;
    },
  };
}

describe('retryStartStep', () => {
  it('waits out a 429 burst and a 5xx, with pauses doubling from 250 ms', async () => {
    const failures: Error[] = [new RateLimitError(undefined), new RateLimitError(undefined), new RateLimitError(undefined), new ExchangeError(500, 'Internal', undefined, 500)];
    const pauses: number[] = [];
    const result = await retryStartStep(async () => {
      const failure = failures.shift();
      if (failure !== undefined) throw failure;
      return 'symbols';
    }, options(pauses));
    expect(result).toBe('symbols');
    expect(pauses).toEqual([250, 500, 1000, 2000]);
  });

  it('throws a final failure at once, and a passing one once it outlasts the budget', async () => {
    const pauses: number[] = [];
    await expect(retryStartStep(async () => {
      throw new ValidationError('strategy.symbols[0]', 'is not a symbol of the exchange', 'NOPE');
    }, options(pauses))).rejects.toThrow(/not a symbol/);
    expect(pauses).toEqual([]);
    await expect(retryStartStep(async () => {
      throw new RateLimitError(undefined);
    }, options(pauses, -1, 5_000))).rejects.toBeInstanceOf(RateLimitError);
    // 250 + 500 + 1000 + 2000 = 3750; the next pause (4000) would pass 5 s.
    expect(pauses).toEqual([250, 500, 1000, 2000]);
  });

  it('gives up quietly when the bot is asked to stop during a pause', async () => {
    const pauses: number[] = [];
    let calls = 0;
    const result = await retryStartStep(async () => {
      calls++;
      throw new RateLimitError(undefined);
    }, options(pauses, 1));
    expect(result).toBeUndefined();
    expect(calls).toBe(2);
  });
});
