import { type Decimal, decimalParam, defineParams, integerParam, stringParam } from 'tradeloop';

/** Order type of the stop-loss leg. */
export type StopType = 'stopMarket' | 'stopLimit';

/** Parameters of the bracket strategy, validated and with defaults filled. */
export interface BracketParams {
  /** Entry size, base units (rounded down to the symbol's lot); the exits sell the same. */
  readonly orderQuantity: Decimal;
  /** Entry limit price below the mid, bps. */
  readonly entryOffsetBps: Decimal;
  /** Take-profit above the entry price, bps. */
  readonly takeProfitBps: Decimal;
  /** Stop-loss below the entry price, bps. */
  readonly stopLossBps: Decimal;
  readonly stopType: StopType;
  /** stopLimit only: the limit price below the stop price, bps (room to fill in a falling market). */
  readonly stopLimitOffsetBps: Decimal;
  /** Wait after a bracket ended before the next one, ms. */
  readonly cooldownMs: number;
  /** An entry not filled after this long is cancelled with its exits, ms. */
  readonly entryTimeoutMs: number;
}

/** Validates raw bracket parameters (ValidationError naming the field) and fills defaults. */
export const parseBracketParams: (raw: unknown) => BracketParams = defineParams({
  orderQuantity: decimalParam({ description: 'Entry size, base units', positive: true }),
  entryOffsetBps: decimalParam({ description: 'Entry limit price below the mid, bps', default: '5', min: '0', max: '5000' }),
  takeProfitBps: decimalParam({ description: 'Take-profit above the entry price, bps', default: '20', positive: true }),
  stopLossBps: decimalParam({ description: 'Stop-loss below the entry price, bps', default: '20', positive: true, max: '5000' }),
  stopType: stringParam<StopType>({ description: 'Order type of the stop-loss leg', default: 'stopMarket', oneOf: ['stopMarket', 'stopLimit'] }),
  stopLimitOffsetBps: decimalParam({ description: 'stopLimit: limit price below the stop price, bps', default: '10', min: '0', max: '5000' }),
  cooldownMs: integerParam({ description: 'Wait after a bracket ended before the next, ms', default: 60_000, min: 0 }),
  entryTimeoutMs: integerParam({ description: 'Cancel an unfilled entry (with its exits) after this long, ms', default: 60_000, min: 1 }),
});
