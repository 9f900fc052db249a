import { Decimal } from '../../../../framework/model/decimal.js';
import type { DecisionFrame } from '../../../../framework/model/decision-frame.js';
import type { RunFill } from '../../../../backtest/compare/run-folder.js';

/** A hand-built fill: a maker buy of 1 BTCUSDT at 100, fee 0.1, on frame seq 10, unless told otherwise. */
export function runFill(row: number, fields: Partial<Omit<RunFill, 'price' | 'quantity' | 'fee'>> & { price?: string; quantity?: string; fee?: string } = {}): RunFill {
  const { price = '100', quantity = '1', fee = '0.1', ...rest } = fields;
  return {
    row, time: 1_000 * row, symbol: 'BTCUSDT', side: 'buy', liquidity: 'maker', feeCurrency: 'USDT',
    clientOrderId: `o${row}`, tradeId: `t${row}`, intentId: `mm-${row}`, decision: frame(10),
    ...rest, price: new Decimal(price), quantity: new Decimal(quantity), fee: new Decimal(fee),
  };
}

/** A book frame of BTCUSDT with sequence `sequence`. */
export function frame(sequence: number, fields: Partial<DecisionFrame> = {}): DecisionFrame {
  return { symbol: 'BTCUSDT', receivedAt: 500 + sequence, exchangeTime: 400 + sequence, sequence, index: sequence, ...fields };
}
