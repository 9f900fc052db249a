import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Decimal, dec } from '../../../framework/model/decimal.js';
import type { Strategy } from '../../../framework/runtime/strategy.js';
import { backtest, book, FIXTURE_HEADER, SYMBOL, T0, trades } from './support/replay-fixture.js';

/** A recording of the fixture's pair with margin trading (max leverage 5): the book falls from 100.00/100.10 to 90.00/90.10. */
function marginRecording(dir: string): string {
  const pair = { ...FIXTURE_HEADER.symbols[SYMBOL], margin_trading: true, max_initial_leverage: '5' };
  const frames = [
    book(T0, 1, [['100.00', '5']], [['100.10', '5']], true),
    trades(T0 + 100, 1, [['100.00', '0.5', 'sell']]),
    book(T0 + 60_000, 2, [['90.00', '5'], ['100.00', '0']], [['90.10', '5'], ['100.10', '0']]),
    trades(T0 + 60_100, 2, [['90.00', '0.5', 'sell']]),
  ];
  const file = path.join(dir, 'pair.v3.jsonl');
  const lines = frames.map((f) => JSON.stringify({ t: f.t, src: 'ws/public', msg: f.msg }));
  writeFileSync(file, [JSON.stringify({ ...FIXTURE_HEADER, symbols: { [SYMBOL]: pair } }), ...lines].join('\n') + '\n');
  return file;
}

/** Sells 1 at market once: a short, which a spot account without the base could not open. */
const shortOnce = (): Strategy => {
  let sent = false;
  return { onBook: (ctx, symbol) => (sent ? [] : ((sent = true), ctx.place({ symbol, side: 'sell', type: 'market', quantity: dec('1') }))) };
};

describe('runBacktest on a margin account', () => {
  it('shorts a pair on its isolated margin account at the configured leverage: margin held, unrealized PnL in equity', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-margin-backtest-'));
    try {
      const file = marginRecording(dir);
      const result = await backtest(file, shortOnce, { account: 'margin', balances: { USDT: '1000' }, leverage: { [SYMBOL]: new Decimal('2') } });
      // A market sell of 1 at the bid 100.00, taker fee 0.1 %: 0.1, from the margin balance.
      expect(result.fills.map((f) => [f.side, f.price.toFixed(), f.quantity.toFixed(), f.fee.toFixed()])).toEqual([['sell', '100', '1', '0.1']]);
      // Right after the fill: the cash 1000 - 0.1 and -1 x (mid 100.05 - 100).
      const fillTime = result.fills[0]!.time;
      expect(result.equity.find((point) => point.time >= fillTime)?.equity.toFixed()).toBe('999.85');
      // The position stays open: the cash is the margin balance less the fee.
      expect(result.finalBalances['USDT']?.toFixed()).toBe('999.9');
      // Equity at the end: the cash plus -1 x (mid 90.05 - 100) = 9.95.
      expect(result.equity.at(-1)?.equity.toFixed()).toBe('1009.85');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a margin run on a pair without margin trading, and a short on the spot account', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-margin-refusal-'));
    try {
      const plain = path.join(dir, 'plain.v3.jsonl');
      writeFileSync(plain, `${JSON.stringify(FIXTURE_HEADER)}\n${JSON.stringify({ t: T0, src: 'ws/public', msg: book(T0, 1, [['100.00', '5']], [['100.10', '5']], true).msg })}\n`);
      await expect(backtest(plain, () => ({}), { account: 'margin' })).rejects.toThrow(/strategy\.symbols\[0\].*must be a spot pair with margin trading/);
      // The same short on spot, without the base: refused, nothing fills.
      const spot = await backtest(marginRecording(dir), shortOnce, { balances: { USDT: '1000' } });
      expect(spot.fills).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
