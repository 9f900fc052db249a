import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { dec } from '../../framework/model/decimal.js';
import type { Intent } from '../../framework/model/intent.js';
import { finalLines, journalWorld, type Life } from './support/journal-world.js';
import { executed } from '../support/executed.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

let intents = 0;
const place = (price: string, extra: Partial<Extract<Intent, { kind: 'place' }>> = {}): Intent => ({
  kind: 'place', intentId: `s-${++intents}`, strategyId: 's', symbol: 'BTCUSDT', side: 'buy', type: 'limit', quantity: dec('1'), price: dec(price), ...extra,
});
const replace = (clientOrderId: string, price: string): Intent => ({
  kind: 'replace', intentId: `s-${++intents}`, strategyId: 's', clientOrderId, quantity: dec('1'), price: dec(price),
});
const cancel = (clientOrderId: string): Intent => ({ kind: 'cancel', intentId: `s-${++intents}`, strategyId: 's', clientOrderId });

/** Starts a bot process and waits for its start-up reconciliation. */
async function started(w: ReturnType<typeof journalWorld>): Promise<Life> {
  const life = w.boot();
  await life.adapter.start();
  return life;
}

/** Kills the process: nothing stopped or canceled, the journal only closed. */
function kill(life: Life): void {
  life.adapter.stop();
  life.journal.close();
}

describe('every way an order ends writes its final line, with the reason', () => {
  it('filled by a stream report', async () => {
    const w = journalWorld(dirs);
    const life = await started(w);
    await executed(life.adapter, place('99.5'));
    w.trade('99.5', '1', 'sell');
    kill(life);
    expect(finalLines(w.file).get('b_20231114_1')).toEqual({ status: 'filled', reason: 'filled' });
  });

  it('canceled by a cancel answer, the stream muted', async () => {
    const w = journalWorld(dirs);
    const life = await started(w);
    await executed(life.adapter, place('99.5'));
    life.port.muted = true;
    await executed(life.adapter, cancel('b_20231114_1'));
    kill(life);
    expect(finalLines(w.file).get('b_20231114_1')).toEqual({ status: 'canceled', reason: 'canceled' });
  });

  it('expired: an IOC order that did not execute, answered expired', async () => {
    const w = journalWorld(dirs);
    const life = await started(w);
    life.port.muted = true;
    await executed(life.adapter, place('90', { timeInForce: 'IOC' }));
    kill(life);
    expect(finalLines(w.file).get('b_20231114_1')).toEqual({ status: 'expired', reason: 'expired' });
  });

  it('rejected: the request was refused', async () => {
    const w = journalWorld(dirs);
    const life = await started(w);
    life.port.script.push('refused');
    await executed(life.adapter, place('99.5'));
    kill(life);
    expect(finalLines(w.file).get('b_20231114_1')).toEqual({ status: 'canceled', reason: 'rejected' });
  });

  it('never-existed: a request whose outcome stayed unknown, then the reconciliation finds nothing', async () => {
    const w = journalWorld(dirs);
    const life = await started(w);
    // Every attempt and lookup fails: the order is left pending to the reconciliation.
    life.port.script.push('lost-before', 'failed', 'failed', 'failed');
    await executed(life.adapter, place('99.5'));
    expect(finalLines(w.file).get('b_20231114_1')).toBeUndefined();
    const summary = await life.adapter.reconcile();
    expect(summary.missing).toEqual(['b_20231114_1']);
    kill(life);
    expect(finalLines(w.file).get('b_20231114_1')).toEqual({ status: 'canceled', reason: 'never-existed' });
  });

  it('never-existed after a restart: the crash came before the request left', async () => {
    const w = journalWorld(dirs);
    const first = await started(w);
    first.port.script.push('lost-before', 'failed', 'failed', 'failed');
    await executed(first.adapter, place('99.5'));
    kill(first);
    const second = await started(w);
    kill(second);
    expect(finalLines(w.file).get('b_20231114_1')).toEqual({ status: 'canceled', reason: 'never-existed' });
    expect(second.port.count('findOrder')).toBe(0);
  });

  it('replaced: the replace answer ends the old order when its `replaced` report never arrives', async () => {
    const w = journalWorld(dirs);
    const life = await started(w);
    await executed(life.adapter, place('99.5'));
    life.port.muted = true;
    await executed(life.adapter, replace('b_20231114_1', '99.6'));
    kill(life);
    const finals = finalLines(w.file);
    expect(finals.get('b_20231114_1')).toEqual({ status: 'canceled', reason: 'replaced' });
    expect(finals.get('b_20231114_2')).toBeUndefined();
  });

  it('replaced, learned from the stream\'s report before the answer', async () => {
    const w = journalWorld(dirs);
    const life = await started(w);
    await executed(life.adapter, place('99.5'));
    await executed(life.adapter, replace('b_20231114_1', '99.6'));
    kill(life);
    expect(finalLines(w.file).get('b_20231114_1')).toEqual({ status: 'canceled', reason: 'replaced' });
  });

  it('a refused replacement is rejected, and the order it was to replace ends canceled, not replaced', async () => {
    const w = journalWorld(dirs);
    const life = await started(w);
    await executed(life.adapter, place('99.5'));
    life.port.script.push('refused');
    await executed(life.adapter, replace('b_20231114_1', '99.6'));
    await executed(life.adapter, cancel('b_20231114_1'));
    kill(life);
    const finals = finalLines(w.file);
    expect(finals.get('b_20231114_2')).toEqual({ status: 'canceled', reason: 'rejected' });
    expect(finals.get('b_20231114_1')).toEqual({ status: 'canceled', reason: 'canceled' });
  });

  it('filled while the bot was down: the restart\'s batch read writes the final line, books the execution', async () => {
    const w = journalWorld(dirs);
    const first = await started(w);
    await executed(first.adapter, place('99.5'));
    kill(first);
    w.trade('99.5', '1', 'sell');
    const second = await started(w);
    expect(second.adapter.account.positions.position('s', 'BTCUSDT')?.quantity.toFixed()).toBe('1');
    kill(second);
    expect(finalLines(w.file).get('b_20231114_1')).toEqual({ status: 'filled', reason: 'filled' });
    expect(second.port.count('findOrder', 'orderTrades')).toBe(0);
  });

  it('replaced before a crash whose replace answer was lost: the restart ends the old one as replaced', async () => {
    const w = journalWorld(dirs);
    const first = await started(w);
    await executed(first.adapter, place('99.5'));
    first.port.muted = true;
    first.port.script.push('lost-after', 'failed', 'failed', 'failed');
    await executed(first.adapter, replace('b_20231114_1', '99.6'));
    kill(first);
    const second = await started(w);
    kill(second);
    const finals = finalLines(w.file);
    expect(finals.get('b_20231114_1')).toEqual({ status: 'canceled', reason: 'replaced' });
    expect(finals.get('b_20231114_2')).toBeUndefined();
    expect(second.adapter.account.get('b_20231114_2')?.status).toBe('new');
  });

  it('the venue\'s clock years behind the bot\'s: orders filled while down are still found by the batch read, not taken as never made', async () => {
    const w = journalWorld(dirs, { botClockAheadMs: 3 * 365 * 86_400_000 });
    const first = await started(w);
    await executed(first.adapter, place('99.5'));
    await executed(first.adapter, place('99.4'));
    const [a, b] = first.adapter.account.open('s').map((t) => t.clientOrderId);
    kill(first);
    w.trade('99.4', '2', 'sell');
    const second = await started(w);
    kill(second);
    const finals = finalLines(w.file);
    expect([finals.get(a!), finals.get(b!)]).toEqual([{ status: 'filled', reason: 'filled' }, { status: 'filled', reason: 'filled' }]);
    expect(second.adapter.account.positions.position('s', 'BTCUSDT')?.quantity.toFixed()).toBe('2');
    expect(second.port.count('findOrder')).toBe(0);
  });

  it('an adopted order is journaled: its executions and its end survive a restart after it ended', async () => {
    const w = journalWorld(dirs);
    w.venue.placeOrder('main', { client_order_id: 'manual', symbol: 'BTCUSDT', side: 'buy', quantity: '1', price: '99.7' });
    const first = await started(w);
    w.trade('99.7', '0.3', 'sell');
    w.venue.cancelOrder('main', 'manual');
    kill(first);
    expect(finalLines(w.file).get('manual')).toEqual({ status: 'canceled', reason: 'canceled' });
    const second = await started(w);
    kill(second);
    expect(second.adapter.account.positions.position('s', 'BTCUSDT')?.quantity.toFixed()).toBe('0.3');
    expect(second.port.count('findOrder', 'orderHistoryPage', 'tradeHistory')).toBe(0);
  });
});
