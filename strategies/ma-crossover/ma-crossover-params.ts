import { booleanParam, type Decimal, decimalParam, defineParams, integerParam, stringParam, ValidationError } from 'tradeloop';
import type { AverageKind } from './crossover-signal.js';

/** Parameters of the moving-average crossover, validated and with defaults filled. */
export interface MaCrossoverParams {
  readonly fastPeriod: number;
  readonly slowPeriod: number;
  readonly average: AverageKind;
  /** Size of an entry, base units (rounded down to the symbol's lot). */
  readonly orderQuantity: Decimal;
  /** When false (spot), a death cross only sells what the position holds. */
  readonly allowShort: boolean;
}

const readRaw = defineParams({
  fastPeriod: integerParam({ description: 'Candles of the fast average', default: 5, min: 1, max: 10_000 }),
  slowPeriod: integerParam({ description: 'Candles of the slow average (more than fastPeriod)', default: 20, min: 2, max: 10_000 }),
  average: stringParam<AverageKind>({ description: 'Kind of moving average', default: 'ema', oneOf: ['ema', 'sma'] }),
  orderQuantity: decimalParam({ description: 'Entry size, base units', positive: true }),
  allowShort: booleanParam({ description: 'Sell beyond the position (go short) on a death cross', default: false }),
});

/** Validates raw parameters (ValidationError naming the field) and fills defaults. */
export function parseMaCrossoverParams(raw: unknown): MaCrossoverParams {
  const p = readRaw(raw);
  if (p.slowPeriod <= p.fastPeriod) throw new ValidationError('slowPeriod', `must exceed fastPeriod (${p.fastPeriod})`, p.slowPeriod);
  return p;
}
