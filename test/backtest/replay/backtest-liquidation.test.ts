import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dec } from '../../../framework/model/decimal.js';
import type { OrderReport } from '../../../framework/model/stream/order-report.js';
import type { RuntimeLogger } from '../../../framework/runtime/runtime-ports.js';
import type { Strategy } from '../../../framework/runtime/strategy.js';
import { backtest, book, FIXTURE_HEADER, SYMBOL, T0, trades } from './support/replay-fixture.js';

describe('runBacktest: a liquidation', () => {
  it('reaches the bot as its own fill: position flat at the mark, balances after, the strategy and the log told, the fill marked', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tradeloop-liquidation-backtest-'));
    try {
      const perp = {
        ...FIXTURE_HEADER.symbols[SYMBOL], type: 'futures', contract_type: 'perpetual', base_currency: null, underlying: 'X',
        margin_trading: true, max_initial_leverage: '50',
      };
      const file = path.join(dir, 'perp.v3.jsonl');
      // No recorded futures info: the venue's mark is the book's mid.
      const frames = [
        book(T0, 1, [['100.00', '5']], [['100.10', '5']], true),
        trades(T0 + 100, 1, [['100.00', '0.5', 'sell']]),
        // The book falls: mid (81 + 83) / 2 = 82.
        book(T0 + 60_000, 2, [['81.00', '5'], ['100.00', '0']], [['83.00', '5'], ['100.10', '0']]),
        trades(T0 + 60_100, 2, [['81.00', '0.5', 'sell']]),
      ];
      const lines = frames.map((f) => JSON.stringify({ t: f.t, src: 'ws/public', msg: f.msg }));
      writeFileSync(file, [JSON.stringify({ ...FIXTURE_HEADER, symbols: { [SYMBOL]: perp } }), ...lines].join('\n') + '\n');

      const told: { report: OrderReport; position: string | undefined; balance: string | undefined }[] = [];
      const buyOnce = (): Strategy => {
        let sent = false;
        return {
          onBook: (ctx, symbol) => (sent ? [] : ((sent = true), ctx.place({ symbol, side: 'buy', type: 'market', quantity: dec('1') }))),
          onReport: (ctx, report) => {
            if (report.kind === 'order' && report.report.liquidation === true) {
              told.push({ report: report.report, position: ctx.position(SYMBOL)?.quantity.toFixed(), balance: undefined });
            }
            return [];
          },
        };
      };
      const warnings: { message: string; fields: Readonly<Record<string, unknown>> | undefined }[] = [];
      const logger: RuntimeLogger = { log: (level, message, fields) => { if (level === 'warn') warnings.push({ message, fields }); } };
      const result = await backtest(file, buyOnce, { balances: { USDT: '20' }, leverage: { [SYMBOL]: dec('20') }, logger });

      // Oracle, by hand. The buy: 1 at the ask 100.10, taker fee 0.1 % = 0.1001; cash 20 - 0.1001 = 19.8999.
      // At mark 82: margin balance 19.8999 + (82 - 100.1) = 1.7999, below the maintenance margin
      // 82 / (20 x 2) = 2.05: the position closes at 82, realizing -18.1, force-close fee 0 (the
      // default terms), so the cash is 19.8999 - 18.1 = 1.7999 and no margin is held any more.
      expect(result.fills.map((f) => [f.side, f.price.toFixed(), f.quantity.toFixed(), f.fee.toFixed(), f.liquidity, f.liquidation ?? false]))
        .toEqual([['buy', '100.1', '1', '0.1001', 'taker', false], ['sell', '82', '1', '0', 'taker', true]]);
      expect(result.fills[1]?.clientOrderId).toMatch(/^liquidation-/);
      expect(result.fills[1]?.strategyId).toBe('test');
      expect(result.finalBalances['USDT']?.toFixed()).toBe('1.7999');
      expect(result.meta.futures?.liquidations.map((l) => [l.quantity.toFixed(), l.price.toFixed(), l.realized.toFixed()])).toEqual([['1', '82', '-18.1']]);

      // The strategy heard it once, marked, with its position already flat.
      expect(told.map((t) => [t.report.client_order_id, t.report.side, t.report.trade_quantity?.toFixed(), t.report.trade_price?.toFixed(), t.report.trade_fee?.toFixed(), t.position]))
        .toEqual([[result.fills[1]?.clientOrderId, 'sell', '1', '82', '0', '0']]);
      expect(warnings.filter((w) => w.message === 'position liquidated').map((w) => [w.fields?.['symbol'], w.fields?.['quantity'], w.fields?.['price']]))
        .toEqual([[SYMBOL, '1', '82']]);

      // The report folder's fills.csv marks it too.
      const out = path.join(dir, 'out');
      await backtest(file, buyOnce, { balances: { USDT: '20' }, leverage: { [SYMBOL]: dec('20') }, reportDir: out });
      const [header, ...rows] = readFileSync(path.join(out, 'fills.csv'), 'utf8').trim().split('\r\n').map((line) => line.split(','));
      const column = (name: string) => rows.map((row) => row[header!.indexOf(name)]);
      expect([column('side'), column('price'), column('liquidation')]).toEqual([['buy', 'sell'], ['100.1', '82'], ['', 'true']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
