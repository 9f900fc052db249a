import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RecordingReader } from '../../backtest/recording/recording-reader.js';
import { runBacktest } from '../../backtest/replay/backtest-runner.js';
import type { BacktestResult } from '../../backtest/report/backtest-result.js';
import { loadBotConfig } from '../../framework/config/bot-config.js';
import { ZERO, dec, type Decimal } from '../../framework/model/decimal.js';
import { loadStrategyPlugin } from '../../framework/runtime/plugin-loader.js';

const CONFIG_DIR = fileURLToPath(new URL('../../config/', import.meta.url));
const SAMPLE = fileURLToPath(new URL('../../backtest/samples/synthetic-btc-eth.v3.jsonl.gz', import.meta.url));
const PERP_SAMPLE = fileURLToPath(new URL('../../backtest/samples/synthetic-btc-perp.v3.jsonl.gz', import.meta.url));

/** Runs config/<name>.yaml over the sample recording; returns the result and the error log lines. */
async function backtest(name: string): Promise<{ result: BacktestResult; errors: string[] }> {
  const config = loadBotConfig(`${CONFIG_DIR}${name}.yaml`);
  const { plugin } = await loadStrategyPlugin(config.strategy.name);
  const errors: string[] = [];
  const result = await runBacktest({
    strategyRef: name, plugin, params: plugin.parseParams(config.strategy.params), symbols: config.strategy.symbols, recordings: [SAMPLE],
    balances: config.backtest.balances, risk: config.risk, seed: config.backtest.seed, candles: config.strategy.candles,
    errorPolicy: config.strategy.errorPolicy, botId: config.bot.id,
    logger: { log: (level, message) => void (level === 'error' ? errors.push(message) : undefined) },
  });
  return { result, errors };
}

/** Position after each fill (buys add, sells subtract). */
function positions(result: BacktestResult): Decimal[] {
  let q = ZERO;
  return result.fills.map((f) => (q = f.side === 'buy' ? q.plus(f.quantity) : q.minus(f.quantity)));
}

describe('example configs on the sample recording', () => {
  it('market-maker: maker fills on both sides, position within maxInventory (0.2 ETH)', async () => {
    const { result, errors } = await backtest('market-maker');
    expect(errors).toEqual([]);
    expect(result.fills.some((f) => f.side === 'buy') && result.fills.some((f) => f.side === 'sell')).toBe(true);
    expect(result.fills.every((f) => f.liquidity === 'maker')).toBe(true);
    expect(positions(result).every((q) => q.abs().lessThanOrEqualTo(dec('0.2')))).toBe(true);
  }, 60_000);

  it('ma-crossover: buys 0.01 BTC on the golden cross, sells it on the death cross', async () => {
    const { result, errors } = await backtest('ma-crossover');
    expect(errors).toEqual([]);
    expect(result.orders.map((o) => `${o.side} ${o.type} ${o.filledQuantity.toFixed()} ${o.status}`)).toEqual(['buy market 0.01 filled', 'sell market 0.01 filled']);
  }, 60_000);

  it('perp-maker: maker fills on both sides of the perpetual, position within maxPosition (0.05), at the configured leverage', async () => {
    const config = loadBotConfig(`${CONFIG_DIR}perp-maker.yaml`);
    const { plugin } = await loadStrategyPlugin(config.strategy.name);
    const errors: string[] = [];
    const result = await runBacktest({
      strategyRef: 'perp-maker', plugin, params: plugin.parseParams(config.strategy.params), symbols: config.strategy.symbols, recordings: [PERP_SAMPLE],
      balances: config.backtest.balances, risk: config.risk, seed: config.backtest.seed, errorPolicy: config.strategy.errorPolicy, botId: config.bot.id,
      account: 'futures', leverage: config.bot.leverage,
      logger: { log: (level, message) => void (level === 'error' ? errors.push(message) : undefined) },
    });
    expect(errors).toEqual([]);
    expect(result.fills.some((f) => f.side === 'buy') && result.fills.some((f) => f.side === 'sell')).toBe(true);
    expect(result.fills.every((f) => f.liquidity === 'maker')).toBe(true);
    expect(positions(result).every((q) => q.abs().lessThanOrEqualTo(dec('0.05')))).toBe(true);
    expect(result.meta.futures?.liquidations).toEqual([]);
    // The futures report: every fill's fee belongs to one of its positions, and margin was sampled.
    const report = result.futures;
    const fillFees = result.fills.reduce((sum, f) => sum.plus(f.fee), ZERO);
    expect(report?.positions.reduce((sum, p) => sum.plus(p.fees), ZERO).toFixed()).toBe(fillFees.toFixed());
    expect(report?.positions.length).toBeGreaterThan(0);
    expect(report?.margin.length).toBeGreaterThan(1);
    // The sample's one funding, at 00:00: the position then (its fills before) x the last recorded
    // mark before it x the recorded rate, read from the recording itself; a long pays.
    const funding = Date.UTC(2024, 0, 1);
    let mark: Decimal | undefined;
    let rate: Decimal | undefined;
    for await (const frame of new RecordingReader(PERP_SAMPLE).frames()) {
      if (frame.src !== 'rest' || frame.t >= funding) continue;
      const info = (frame.msg as { body: Record<string, { mark_price: string; funding_rate: string }> }).body.BTCUSDT_PERP!;
      mark = dec(info.mark_price);
      rate = dec(info.funding_rate);
    }
    const held = result.fills.filter((f) => f.time < funding).reduce((q, f) => (f.side === 'buy' ? q.plus(f.quantity) : q.minus(f.quantity)), ZERO);
    const amount = held.times(mark!).times(rate!);
    const futures = result.meta.futures!;
    expect([futures.fundingPaid.USDT?.toFixed(), futures.fundingReceived.USDT?.toFixed()])
      .toEqual(amount.isZero() ? [undefined, undefined] : amount.isPositive() ? [amount.toFixed(), undefined] : [undefined, amount.abs().toFixed()]);
    expect(amount.isZero()).toBe(false);
  }, 60_000);

  it('bracket: completes brackets, each entry followed by its exit', async () => {
    const { result, errors } = await backtest('bracket');
    expect(errors).toEqual([]);
    const filledExits = result.orders.filter((o) => o.side === 'sell' && o.status === 'filled');
    expect(filledExits.length).toBeGreaterThan(0);
    // Flat after every completed bracket: the position never exceeds one entry.
    expect(positions(result).every((q) => !q.isNegative() && q.lessThanOrEqualTo(dec('0.1')))).toBe(true);
  }, 60_000);
});
