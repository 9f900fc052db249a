import { describe, expect, it } from 'vitest';
import { runSoak } from '../../bench/soak/soak-run.js';

/**
 * The short soak of CI: the market-maker bot as its own `tradeloop live` process against the
 * sandbox with the `soak` faults and a moving market, SIGKILLed and restarted a few times at
 * moments drawn from the seed, then stopped with SIGTERM. `npm run soak` runs the long version
 * (10 minutes, 8-12 kills, five seeds).
 */
describe('a live bot soaked in faults and SIGKILLs (short)', () => {
  it('ends with no open order, no reused client_order_id, every order and fill journaled, and the exchange\'s position and balances', async () => {
    const result = await runSoak({ seed: '1', durationMs: 30_000, kills: { min: 3, max: 3 } });

    // The run must have done what it claims, or the checks below would pass on nothing.
    expect(result.kills).toBe(3);
    expect(result.lives.length).toBe(4);
    expect(result.orders).toBeGreaterThan(10);
    expect(result.fills).toBeGreaterThan(0);
    expect(result.checks.length).toBe(8);
    expect(result.checks.filter((c) => !c.pass)).toEqual([]);
  }, 120_000);
});
