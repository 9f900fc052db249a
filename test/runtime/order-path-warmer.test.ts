import { VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../framework/model/errors.js';
import type { Intent } from '../../framework/model/intent.js';
import { intentKey } from '../../framework/risk/reservation-key.js';
import { RiskGate } from '../../framework/risk/risk-gate.js';
import type { StandingRehearsal } from '../../framework/runtime/order-path-rehearsal.js';
import { OrderPathWarmer, WARM_ORDERS_PER_RUN } from '../../framework/runtime/order-path-warmer.js';
import { d, place, spotState } from '../risk/risk-fixtures.js';

function setup(openOrders = 1) {
  const state = spotState();
  for (let i = 1; i <= openOrders; i++) {
    state.orders.set(`c${i}`, {
      clientOrderId: `c${i}`, symbol: 'ETHUSDT', side: 'buy', type: 'limit', quantity: d('0.5'), quantityCumulative: d('0'), price: d(`199${i}`), reservationKey: intentKey(`p${i}`),
    });
  }
  const gate = new RiskGate({}, state.ledger, state.rateWindow);
  const dryRuns: Intent[] = [];
  vi.spyOn(gate, 'dryRun').mockImplementation((intent) => {
    dryRuns.push(intent);
    return undefined;
  });
  const scheduler = new VirtualTimeScheduler();
  return { state, gate, dryRuns, scheduler };
}

describe('OrderPathWarmer', () => {
  it('dry-runs a replace of each open order at its own price and quantity, every interval, until stopped', () => {
    const { state, gate, dryRuns, scheduler } = setup();
    const warmer = new OrderPathWarmer(gate, state, scheduler, 5);
    warmer.start();
    scheduler.maxFrames = 15;
    scheduler.flush();
    expect(dryRuns).toHaveLength(3);
    expect(dryRuns[0]).toMatchObject({ kind: 'replace', clientOrderId: 'c1', quantity: d('0.5'), price: d('1991') });
    warmer.stop();
    scheduler.maxFrames = 100;
    scheduler.flush();
    expect(dryRuns).toHaveLength(3);
    expect(warmer.dryRuns).toBe(3);
  });

  it('copies the last replace that passed, and dry-runs the last place as it was', () => {
    const { state, gate, dryRuns, scheduler } = setup();
    const warmer = new OrderPathWarmer(gate, state, scheduler, 1);
    const placed = place({ side: 'sell', quantity: '0.5', price: '2010' });
    warmer.passed(placed);
    warmer.passed({ kind: 'replace', intentId: 's-7', strategyId: 's', tag: 'bid-quote', clientOrderId: 'old', quantity: d('1'), price: d('1'), newClientOrderId: 'n7' });
    warmer.run();
    expect(dryRuns).toEqual([
      { kind: 'replace', intentId: 's-7', strategyId: 's', tag: 'bid-quote', clientOrderId: 'c1', quantity: d('0.5'), price: d('1991'), newClientOrderId: 'n7' },
      placed,
    ]);
  });

  it(`replaces at most ${WARM_ORDERS_PER_RUN} open orders a run`, () => {
    const { state, gate, dryRuns, scheduler } = setup(WARM_ORDERS_PER_RUN + 3);
    new OrderPathWarmer(gate, state, scheduler, 1).run();
    expect(dryRuns).toHaveLength(WARM_ORDERS_PER_RUN);
  });

  it('stops for good when a dry run throws, and says why', () => {
    const { state, gate, scheduler } = setup();
    const boom = new Error('check failed');
    vi.spyOn(gate, 'dryRun').mockImplementation(() => {
      throw boom;
    });
    const errors: unknown[] = [];
    const warmer = new OrderPathWarmer(gate, state, scheduler, 1, (error) => errors.push(error));
    warmer.start();
    scheduler.maxFrames = 10;
    scheduler.flush();
    expect(errors).toEqual([boom]);
    expect(warmer.dryRuns).toBe(0);
  });

  it('shows its standing rehearsal a book each run, and stops it when stopped', async () => {
    const { state, gate, dryRuns, scheduler } = setup();
    const rehearsal = { step: vi.fn(() => true), stop: vi.fn(() => Promise.resolve()) };
    const warmer = new OrderPathWarmer(gate, state, scheduler, 5);
    warmer.start(rehearsal as unknown as StandingRehearsal);
    scheduler.maxFrames = 15;
    scheduler.flush();
    expect(rehearsal.step).toHaveBeenCalledTimes(3);
    expect(warmer.rehearsalBooks).toBe(3);
    expect(dryRuns).toHaveLength(3);
    await warmer.stop();
    expect(rehearsal.stop).toHaveBeenCalledTimes(1);
    scheduler.maxFrames = 100;
    scheduler.flush();
    expect(rehearsal.step).toHaveBeenCalledTimes(3);
  });

  it('stops for good, its rehearsal with it, when the rehearsal no longer takes books (its strategy halted)', () => {
    const { state, gate, dryRuns, scheduler } = setup();
    let books = 2;
    const rehearsal = { step: vi.fn(() => books-- > 0), stop: vi.fn(() => Promise.resolve()) };
    const errors: unknown[] = [];
    const warmer = new OrderPathWarmer(gate, state, scheduler, 5, (error) => errors.push(error));
    warmer.start(rehearsal as unknown as StandingRehearsal);
    scheduler.maxFrames = 50;
    scheduler.flush();
    expect(warmer.rehearsalBooks).toBe(2);
    expect(dryRuns).toHaveLength(2);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/standing rehearsal stopped taking books/);
    expect(rehearsal.stop).toHaveBeenCalledTimes(1);
  });

  it('takes an interval of 1 to 1000 ms, whole', () => {
    const { state, gate, scheduler } = setup();
    for (const bad of [0, 1.5, 1001, Number.NaN]) expect(() => new OrderPathWarmer(gate, state, scheduler, bad)).toThrow(ValidationError);
    expect(new OrderPathWarmer(gate, state, scheduler, 1000).intervalMs).toBe(1000);
  });
});
