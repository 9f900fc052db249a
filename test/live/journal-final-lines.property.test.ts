import { rmSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { dec } from '../../framework/model/decimal.js';
import type { Intent } from '../../framework/model/intent.js';
import { finalLines, journalWorld, type Fault, type Life } from './support/journal-world.js';
import { executed } from '../support/executed.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

type Command =
  | { readonly k: 'place'; readonly cents: number; readonly side: 'buy' | 'sell'; readonly ioc: boolean; readonly faults: Fault[] }
  | { readonly k: 'replace'; readonly pick: number; readonly cents: number; readonly faults: Fault[] }
  | { readonly k: 'cancel'; readonly pick: number; readonly faults: Fault[] }
  | { readonly k: 'trade'; readonly cents: number; readonly lots: number; readonly side: 'buy' | 'sell' }
  | { readonly k: 'mute'; readonly on: boolean }
  | { readonly k: 'reconcile'; readonly faults: Fault[] }
  | { readonly k: 'restart'; readonly faults: Fault[] };

const faults = fc.array(fc.constantFrom<Fault>('ok', 'ok', 'refused', 'lost-before', 'lost-after', 'failed'), { maxLength: 5 });
const cents = fc.integer({ min: 9_800, max: 10_200 });
const side = fc.constantFrom<'buy' | 'sell'>('buy', 'sell');
const command: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: fc.record({ k: fc.constant('place' as const), cents, side, ioc: fc.boolean(), faults }), weight: 4 },
  { arbitrary: fc.record({ k: fc.constant('replace' as const), pick: fc.nat(), cents, faults }), weight: 3 },
  { arbitrary: fc.record({ k: fc.constant('cancel' as const), pick: fc.nat(), faults }), weight: 2 },
  { arbitrary: fc.record({ k: fc.constant('trade' as const), cents, lots: fc.integer({ min: 1, max: 15 }), side }), weight: 3 },
  { arbitrary: fc.record({ k: fc.constant('mute' as const), on: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant('reconcile' as const), faults }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant('restart' as const), faults }), weight: 1 },
);

const price = (c: number): string => (c / 100).toFixed(2);

/** The venue status a final line's reason stands for; undefined: the venue must not have the order. */
const VENUE_STATUS: Record<string, string | undefined> = {
  filled: 'filled', canceled: 'canceled', replaced: 'canceled', expired: 'expired', rejected: undefined, 'never-existed': undefined,
};

async function boot(w: ReturnType<typeof journalWorld>, script: readonly Fault[]): Promise<Life> {
  const life = w.boot();
  life.port.script.push(...script);
  await life.adapter.start();
  life.port.script.length = 0;
  return life;
}

function kill(life: Life): void {
  life.adapter.stop();
  life.journal.close();
}

async function run(w: ReturnType<typeof journalWorld>, commands: readonly Command[]): Promise<Life> {
  let life = await boot(w, []);
  let n = 0;
  const submit = async (intent: Intent, script: readonly Fault[]): Promise<void> => {
    life.port.script.push(...script);
    await executed(life.adapter, intent);
    life.port.script.length = 0;
  };
  const pick = (i: number): string | undefined => {
    const open = life.adapter.account.open('s').map((t) => t.clientOrderId).sort();
    return open.length === 0 ? undefined : open[i % open.length];
  };
  for (const c of commands) {
    const intentId = `s-${++n}`;
    if (c.k === 'place') {
      await submit({
        kind: 'place', intentId, strategyId: 's', symbol: 'BTCUSDT', side: c.side, type: 'limit', quantity: dec('0.1'), price: dec(price(c.cents)),
        timeInForce: c.ioc ? 'IOC' : undefined,
      }, c.faults);
    } else if (c.k === 'replace' || c.k === 'cancel') {
      const id = pick(c.pick);
      if (id === undefined) continue;
      await submit(c.k === 'cancel'
        ? { kind: 'cancel', intentId, strategyId: 's', clientOrderId: id }
        : { kind: 'replace', intentId, strategyId: 's', clientOrderId: id, quantity: dec('0.2'), price: dec(price(c.cents)) }, c.faults);
    } else if (c.k === 'trade') {
      w.trade(price(c.cents), (c.lots / 100).toFixed(2), c.side);
    } else if (c.k === 'mute') {
      life.port.muted = c.on;
    } else if (c.k === 'reconcile') {
      life.port.script.push(...c.faults);
      await life.adapter.reconcile();
      life.port.script.length = 0;
    } else {
      kill(life);
      life = await boot(w, c.faults);
    }
  }
  kill(life);
  // The last restart meets no faults: every order it restored settles.
  const last = await boot(w, []);
  kill(last);
  return last;
}

describe('journal final lines, over any sequence of orders, faults, lost reports and restarts', () => {
  it('every journaled order ends final, with the venue\'s outcome, or is still open on the venue; positions equal the venue\'s executions', async () => {
    await fc.assert(fc.asyncProperty(fc.array(command, { maxLength: 25 }), async (commands) => {
      const w = journalWorld(dirs);
      const last = await run(w, commands);
      const finals = finalLines(w.file);
      const open = new Set(w.venue.openOrders('main').map((o) => o.client_order_id));
      const history = new Map(w.venue.orderHistory('main').map((o) => [o.client_order_id, o.status]));
      for (const [id, final] of finals) {
        if (final === undefined) {
          expect(open.has(id), `${id} has no final line and is not open on the venue`).toBe(true);
          continue;
        }
        expect(open.has(id), `${id} is final in the journal but open on the venue`).toBe(false);
        expect(history.get(id), `${id} ended ${final.reason}`).toBe(VENUE_STATUS[final.reason]);
      }
      for (const id of open) expect(finals.has(id), `${id} is open on the venue but not journaled`).toBe(true);
      let position = dec(0);
      for (const t of w.venue.tradeHistory('main')) position = t.side === 'buy' ? position.plus(t.quantity) : position.minus(t.quantity);
      const booked = last.adapter.account.positions.position('s', 'BTCUSDT')?.quantity ?? dec(0);
      expect(booked.toFixed()).toBe(position.toFixed());
    }), { numRuns: 60 });
  });
});
