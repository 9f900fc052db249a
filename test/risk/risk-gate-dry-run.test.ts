import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Intent, OrderSpec } from '../../framework/model/intent.js';
import { intentKey } from '../../framework/risk/reservation-key.js';
import { RiskGate } from '../../framework/risk/risk-gate.js';
import type { RiskState } from '../../framework/risk/risk-state.js';
import { d, f, place, spotState } from './risk-fixtures.js';

/** What a run could leave behind: balances, reservations, the rate window's counts, open orders and positions. */
function snapshot(state: RiskState): unknown {
  const currencies = ['USDT', 'ETH'].map((c) => [c, state.ledger.balance(c).toFixed(), state.ledger.reserved(c).toFixed(), state.ledger.free(c).toFixed()]);
  const reservations = [...state.ledger.entries()].map((r) => [r.key.id, r.currency, r.amount.toFixed(), r.remaining.toFixed(), r.filled.toFixed(), r.state]);
  // Every window start from well before the first request to after the last.
  const counts = Array.from({ length: 40 }, (_, i) => state.rateWindow.countAfter(state.now - 2_000 + i * 100));
  return { currencies, reservations, counts, orders: [...state.orders.keys()], positions: [...state.positionsBySymbol], now: state.now };
}

/** A state with one resting buy (c1) holding its reservation and a few requests already in the rate window. */
function scenario(usdt: string, eth: string, sentAgo: readonly number[]): RiskState {
  const state = spotState({ USDT: usdt, ETH: eth });
  state.ledger.reserve(intentKey('placed'), 'USDT', f('200.5'), d('0.1'));
  state.ledger.accept(intentKey('placed'));
  state.orders.set('c1', {
    clientOrderId: 'c1', symbol: 'ETHUSDT', side: 'buy', type: 'limit', quantity: d('0.1'), quantityCumulative: d('0'), price: d('2000'), reservationKey: intentKey('placed'),
  });
  for (const ago of [...sentAgo].sort((a, b) => b - a)) state.rateWindow.record(state.now - ago);
  return state;
}

const side = fc.constantFrom('buy' as const, 'sell' as const);
const quantity = fc.integer({ min: 1, max: 40_000 }).map((lots) => (lots / 10_000).toFixed(4));
// On the grid, off it (a third decimal), in and out of a 1% band around 2000.05.
const price = fc.oneof(fc.integer({ min: 190_000, max: 210_000 }).map((c) => (c / 100).toFixed(2)), fc.constant('2000.005'));
const intentArb: fc.Arbitrary<Intent> = fc.oneof(
  fc.record({ side, quantity, price }).map(({ side: s, quantity: q, price: p }) => place({ side: s, quantity: q, price: p })),
  fc.record({ side, quantity }).map(({ side: s, quantity: q }) => place({ side: s, type: 'market', quantity: q })),
  fc.record({ quantity, price, id: fc.constantFrom('c1', 'gone') }).map(({ quantity: q, price: p, id }): Intent => ({
    kind: 'replace', intentId: `r-${id}`, strategyId: 's', clientOrderId: id, quantity: d(q), price: d(p),
  })),
  fc.tuple(quantity, price, price).map(([q, a, b]): Intent => {
    const leg = (p: string): OrderSpec => ({ symbol: 'ETHUSDT', side: 'buy', type: 'limit', quantity: d(q), price: d(p) });
    return { kind: 'orderList', intentId: 'l', strategyId: 's', contingencyType: 'oneCancelOther', orders: [leg(a), leg(b)] };
  }),
  fc.constant<Intent>({ kind: 'cancel', intentId: 'k', strategyId: 's', clientOrderId: 'c1' }),
);
const setup = fc.record({
  usdt: fc.integer({ min: 0, max: 10_000 }).map(String),
  eth: fc.integer({ min: 0, max: 5 }).map(String),
  sentAgo: fc.array(fc.integer({ min: 0, max: 1_500 }), { maxLength: 6 }),
  maxOrdersPerWindow: fc.integer({ min: 1, max: 8 }),
});
const riskConfig = (maxOrdersPerWindow: number) => ({ priceBand: '0.01', maxOrdersPerWindow, orderRateWindowMs: 1_000 });

describe('RiskGate.dryRun', () => {
  it('property: any number of dry runs changes nothing the gate or a check can see', () => {
    fc.assert(fc.property(setup, fc.array(intentArb, { minLength: 1, maxLength: 12 }), ({ usdt, eth, sentAgo, maxOrdersPerWindow }, intents) => {
      const state = scenario(usdt, eth, sentAgo);
      const gate = new RiskGate(riskConfig(maxOrdersPerWindow), state.ledger, state.rateWindow);
      const before = snapshot(state);
      for (const intent of intents) gate.dryRun(intent, state);
      expect(snapshot(state)).toEqual(before);
    }), { numRuns: 300 });
  });

  it('property: the real verdicts after dry runs equal those without, and the dry run foresees each one', () => {
    fc.assert(fc.property(
      setup, fc.array(fc.tuple(intentArb, fc.array(intentArb, { maxLength: 3 }), fc.integer({ min: 0, max: 300 })), { minLength: 1, maxLength: 10 }),
      ({ usdt, eth, sentAgo, maxOrdersPerWindow }, steps) => {
        const plain = scenario(usdt, eth, sentAgo);
        const warmed = scenario(usdt, eth, sentAgo);
        const plainGate = new RiskGate(riskConfig(maxOrdersPerWindow), plain.ledger, plain.rateWindow);
        const warmedGate = new RiskGate(riskConfig(maxOrdersPerWindow), warmed.ledger, warmed.rateWindow);
        for (const [intent, dryRuns, gap] of steps) {
          plain.now += gap;
          warmed.now += gap;
          for (const dry of dryRuns) warmedGate.dryRun(dry, warmed);
          const foreseen = warmedGate.dryRun(intent, warmed);
          const expected = plainGate.evaluate(intent, plain);
          const actual = warmedGate.evaluate(intent, warmed);
          expect(actual).toEqual(expected);
          // A single order's dry run names the same first denial (lists may differ at the reservation: see dryRun).
          if (intent.kind !== 'orderList') expect(foreseen).toEqual(expected.kind === 'denied' ? { check: expected.check, reason: expected.reason } : undefined);
          expect(snapshot(warmed)).toEqual(snapshot(plain));
        }
      },
    ), { numRuns: 300 });
  });

  it('refuses an intent whose id holds a reservation already, naming the id, not the funds; the dry run foresees it', () => {
    const state = spotState({ USDT: '3000' });
    const gate = new RiskGate({ priceBand: '0.01' }, state.ledger, state.rateWindow);
    const first = place({ side: 'buy', quantity: '0.5', price: '2000' });
    expect(gate.evaluate(first, state).kind).toBe('passed');
    const reserved = state.ledger.reserved('USDT').toFixed();
    // Funds are ample for both; the id is the fault.
    const again = { ...place({ side: 'buy', quantity: '0.25', price: '2000' }), intentId: first.intentId };
    const denial = { check: 'intent-id', reason: `${first.intentId}: holds a reservation already (an intent id is used once)` };
    expect(gate.dryRun(again, state)).toEqual(denial);
    expect(gate.evaluate(again, state)).toMatchObject({ kind: 'denied', ...denial });
    expect(state.ledger.reserved('USDT').toFixed()).toBe(reserved);
  });

  it('refuses what evaluate refuses, with the same check and reason, and holds nothing for what would pass', () => {
    const state = spotState({ USDT: '3000' });
    const gate = new RiskGate({ priceBand: '0.01' }, state.ledger, state.rateWindow);
    expect(gate.dryRun(place({ side: 'buy', quantity: '1', price: '2000' }), state)).toBeUndefined();
    expect(state.ledger.reserved('USDT').isZero()).toBe(true);
    expect(state.ordersSentAfter(0)).toBe(0);
    expect(gate.dryRun(place({ side: 'buy', quantity: '1', price: '2500' }), state)?.check).toBe('price-band');
    expect(gate.dryRun(place({ side: 'buy', quantity: '2', price: '2000' }), state)).toEqual({
      check: 'balance', reason: 'ETHUSDT: needs 4010 USDT, free balance 3000 USDT',
    });
  });
});
