import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Decimal } from '../../framework/model/decimal.js';
import type { DecisionFrame } from '../../framework/model/decision-frame.js';
import { ParseError, ValidationError } from '../../framework/model/errors.js';
import type { FillRecord } from '../report/backtest-result.js';
import { csvRecords } from './csv-records.js';

/** One row of a run's fills.csv, parsed (money exact), with its order's creation time when orders.csv has it. */
export interface RunFill extends Pick<FillRecord,
  'time' | 'symbol' | 'side' | 'price' | 'quantity' | 'fee' | 'feeCurrency' | 'liquidity' | 'clientOrderId' | 'tradeId' | 'intentId' | 'decision'> {
  /** 1-based place among the run's fills (the data line of fills.csv). */
  readonly row: number;
  /** When the venue created the fill's order (orders.csv `created_at`). */
  readonly orderCreatedAt?: number;
}

/** What `tradeloop compare` reads of a backtest, paper or live output folder. */
export interface RunFolder {
  readonly dir: string;
  readonly strategy?: string;
  readonly quoteCurrency?: string;
  /** The run's PnL in its quote currency (summary.json `metrics.pnlQuote`). */
  readonly pnl?: Decimal;
  readonly fills: readonly RunFill[];
}

const FILL_COLUMNS = ['time', 'symbol', 'side', 'price', 'quantity', 'fee', 'fee_currency', 'liquidity', 'client_order_id', 'trade_id', 'intent_id'];

/**
 * Reads the output folder of a `backtest`, `paper` or `live` run (`--out`): fills.csv and
 * summary.json are required, orders.csv is read when present. `label` names the argument in
 * errors (a missing folder, a folder that is not a run's output, a malformed file).
 */
export function readRunFolder(dir: string, label: string): RunFolder {
  const folder = path.resolve(dir);
  if (!existsSync(folder)) throw new ValidationError(label, 'no such folder', dir);
  if (!statSync(folder).isDirectory()) throw new ValidationError(label, 'is a file, not a run\'s output folder', dir);
  for (const name of ['fills.csv', 'summary.json']) {
    if (!existsSync(path.join(folder, name))) throw new ValidationError(label, `is not the output folder of a backtest, paper or live run (no ${name})`, dir);
  }
  const summary = readSummary(path.join(folder, 'summary.json'));
  const created = readOrderTimes(path.join(folder, 'orders.csv'));
  const file = path.join(folder, 'fills.csv');
  const fills = csvRecords(readFileSync(file, 'utf8'), file, FILL_COLUMNS).map((r, i) => parseFill(r, i + 1, file, created));
  return { dir: folder, ...summary, fills };
}

function readSummary(file: string): Pick<RunFolder, 'strategy' | 'quoteCurrency' | 'pnl'> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ParseError(file, `is not JSON: ${(error as Error).message}`);
  }
  const { meta, metrics } = (json ?? {}) as { meta?: Record<string, unknown>; metrics?: Record<string, unknown> };
  const pnl = metrics?.['pnlQuote'];
  return {
    ...(typeof meta?.['strategy'] === 'string' ? { strategy: meta['strategy'] } : {}),
    ...(typeof meta?.['quoteCurrency'] === 'string' ? { quoteCurrency: meta['quoteCurrency'] } : {}),
    ...(typeof pnl === 'string' ? { pnl: decimal(pnl, `${file} metrics.pnlQuote`) } : {}),
  };
}

function readOrderTimes(file: string): Map<string, number> {
  const out = new Map<string, number>();
  if (!existsSync(file)) return out;
  csvRecords(readFileSync(file, 'utf8'), file, ['client_order_id', 'created_at']).forEach((r, i) => {
    out.set(r['client_order_id']!, number(r['created_at']!, `${file}:${i + 2} created_at`));
  });
  return out;
}

function parseFill(r: Record<string, string>, row: number, file: string, created: ReadonlyMap<string, number>): RunFill {
  const at = (column: string): string => `${file}:${row + 1} ${column}`;
  const side = r['side'];
  if (side !== 'buy' && side !== 'sell') throw new ParseError(at('side'), 'must be buy or sell', side);
  const liquidity = r['liquidity'];
  if (liquidity !== 'maker' && liquidity !== 'taker') throw new ParseError(at('liquidity'), 'must be maker or taker', liquidity);
  const clientOrderId = r['client_order_id']!;
  const orderCreatedAt = created.get(clientOrderId);
  const intentId = r['intent_id']!;
  const decision = decisionOf(r, at);
  return {
    row, time: number(r['time']!, at('time')), symbol: r['symbol']!, side, liquidity, clientOrderId, tradeId: r['trade_id']!,
    price: decimal(r['price']!, at('price')), quantity: decimal(r['quantity']!, at('quantity')), fee: decimal(r['fee']!, at('fee')), feeCurrency: r['fee_currency']!,
    ...(intentId === '' ? {} : { intentId }), ...(decision === undefined ? {} : { decision }), ...(orderCreatedAt === undefined ? {} : { orderCreatedAt }),
  };
}

/** The decision frame columns (absent in folders written before them, or empty when unknown). */
function decisionOf(r: Record<string, string>, at: (column: string) => string): DecisionFrame | undefined {
  const received = r['decision_received_at'];
  if (received === undefined || received === '') return undefined;
  const exchange = r['decision_exchange_time'] ?? '';
  const sequence = r['decision_sequence'] ?? '';
  return {
    symbol: r['decision_symbol'] ?? '', receivedAt: number(received, at('decision_received_at')), index: number(r['decision_frame'] ?? '0', at('decision_frame')),
    ...(exchange === '' ? {} : { exchangeTime: number(exchange, at('decision_exchange_time')) }),
    ...(sequence === '' ? {} : { sequence: number(sequence, at('decision_sequence')) }),
  };
}

function number(text: string, where: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw new ParseError(where, 'must be a number', text);
  return value;
}

function decimal(text: string, where: string): Decimal {
  if (!/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) throw new ParseError(where, 'must be a decimal number', text);
  return new Decimal(text);
}
