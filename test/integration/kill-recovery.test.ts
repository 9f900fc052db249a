import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ZERO } from '../../framework/model/decimal.js';
import { book, liveBotYaml, readJournal, startExchange, trade, until, type Exchange } from './support/bot-harness.js';

const BIN = fileURLToPath(new URL('../../bin/tradeloop.mjs', import.meta.url));

let exchange: Exchange | undefined;
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await exchange?.close();
  exchange = undefined;
});

/** Starts `tradeloop live` as its own process, with the sandbox account's keys in the environment. */
function startLiveProcess(configFile: string, ex: Exchange): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [BIN, 'live', '--config', configFile], {
    env: { ...process.env, TRADELOOP_API_KEY: ex.apiKey, TRADELOOP_SECRET_KEY: ex.secretKey },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => {
    if (code !== 0 && code !== null && stderr.length > 0) console.error(stderr);
    resolve(code);
  }));
  return { child, exited };
}

describe('a live bot killed with SIGKILL and restarted', () => {
  it('ends with no orphaned and no duplicated orders, and its position equal to the exchange\'s', async () => {
    const ex = (exchange = await startExchange());
    ex.market.push(book(1, '99.00', '101.00'));
    const dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-kill-'));
    const configFile = path.join(dir, 'bot.yaml');
    const logFile = path.join(dir, 'bot.jsonl');
    const journalFile = path.join(dir, 'journal', 'k9.journal.jsonl');
    writeFileSync(configFile, liveBotYaml('k9', ex, 'unknownOrders: cancel'));
    const openOfBot = async () => (await ex.rest.spot.getActiveOrders({ symbol: 'BTCUSDT' })).filter((o) => o.client_order_id.startsWith('k9_'));

    // First life: two quotes, then a market move (replaces in flight) and SIGKILL.
    const first = startLiveProcess(configFile, ex);
    await until(async () => ((await openOfBot()).length === 2 ? true : undefined), 15_000, 'first quotes');
    ex.market.push(book(2, '99.50', '101.50'));
    await new Promise((resolve) => setTimeout(resolve, 15));
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe(null);

    // While the bot is down, a sell print fills its bid.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const beforeRestart = await openOfBot();
    ex.market.push(trade(1, '99.00', '1', 'sell'));
    await until(async () => ((await openOfBot()).every((o) => o.side === 'sell') ? true : undefined), 8000, 'bid filled while down');

    // Second life: recovers from the journal (compacting it on open), reconciles, quotes again.
    const firstLife = readJournal(journalFile);
    const second = startLiveProcess(configFile, ex);
    const reconciled = await until(() => {
      const records = readJournal(journalFile);
      const started = records.findIndex((r) => r['k'] === 'start' && r['pid'] === second.child.pid);
      return started >= 0 && records.slice(started).find((r) => r['event'] === 'reconciled');
    }, 15_000, 'second reconciliation');
    // Every order on the exchange was known from the journal: nothing adopted, nothing canceled as unknown.
    expect(reconciled['adopted']).toEqual([]);
    expect(reconciled['canceled']).toEqual([]);
    const survivingAsk = beforeRestart.find((o) => o.side === 'sell');
    if (survivingAsk !== undefined) expect(reconciled['open']).toContain(survivingAsk.client_order_id);

    const settled = await until(async () => {
      const open = await openOfBot();
      return open.length === 2 && open.some((o) => o.side === 'buy') ? open : undefined;
    }, 15_000, 'quotes after restart');
    expect(settled.map((o) => o.side).sort()).toEqual(['buy', 'sell']);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(await openOfBot()).toEqual([]);

    // No client_order_id was ever used twice, and every order of the bot is in its journal.
    const history = (await ex.rest.spot.getOrderHistory({ symbol: 'BTCUSDT', limit: 1000 })).filter((o) => o.client_order_id.startsWith('k9_'));
    const ids = history.map((o) => o.client_order_id);
    expect(new Set(ids).size).toBe(ids.length);
    // The journal as the kill left it, and as the second life left it (compaction dropped the first life's ended orders and intents).
    const lives = [...firstLife, ...readJournal(journalFile)];
    const journaled = new Set(lives.filter((r) => r['k'] === 'order').map((r) => r['id']));
    for (const id of ids) expect(journaled.has(id)).toBe(true);
    // Intent ids go on across the restart: every order stays traceable to one intent.
    const intentIds = lives.filter((r) => r['k'] === 'intent').map((r) => r['intent']);
    expect(new Set(intentIds).size).toBe(intentIds.length);
    // Every order of the bot ended with a final line: none is left for a third start to look up.
    const final = new Set(readJournal(journalFile).filter((r) => r['k'] === 'final').map((r) => r['id']));
    for (const id of ids) expect(final.has(id) || !readJournal(journalFile).some((r) => r['k'] === 'order' && r['id'] === id)).toBe(true);

    // The position the bot reported at shutdown equals the exchange's executions of its orders.
    const trades = (await ex.rest.spot.getTradeHistory({ symbol: 'BTCUSDT', limit: 1000 })).filter((t) => t.client_order_id.startsWith('k9_'));
    const exchangePosition = trades.reduce((q, t) => (t.side === 'buy' ? q.plus(t.quantity) : q.minus(t.quantity)), ZERO);
    expect(exchangePosition.isZero()).toBe(false);
    const lines = readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { message: string });
    const last = lines.map((l) => l.message).filter((m) => m.startsWith('[stopped]')).pop();
    expect(last).toBeDefined();
    const reported = /BTCUSDT ([+-][0-9.]+)/.exec(last!)?.[1];
    expect(reported).toBeDefined();
    expect(exchangePosition.equals(reported!)).toBe(true);
  }, 60_000);
});
