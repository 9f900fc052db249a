import { type Decimal, decimalParam, defineParams, integerParam } from 'tradeloop';

/** Parameters of the perpetual market maker, validated and with defaults filled. */
export interface PerpMakerParams {
  /** Distance of each quote from the (skewed) mid, in basis points. */
  readonly halfSpreadBps: Decimal;
  /** Size of each quote, contracts (rounded down to the symbol's lot). */
  readonly orderQuantity: Decimal;
  /** Largest absolute position, contracts, long or short; the side that would pass it is not quoted. */
  readonly maxPosition: Decimal;
  /** Shift of both quotes against the position, in basis points, at a position of maxPosition. */
  readonly skewBps: Decimal;
  /**
   * Least distance from the mid to the position's liquidation price (the exchange's), as a
   * fraction: nearer, only the side that reduces the position is quoted, reduce-only.
   */
  readonly minLiquidationDistance: Decimal;
  /** Smallest move of a quote, in ticks, worth a replace. */
  readonly requoteTicks: number;
}

/** Validates raw parameters (ValidationError naming the field) and fills defaults. */
export const parsePerpMakerParams: (raw: unknown) => PerpMakerParams = defineParams({
  halfSpreadBps: decimalParam({ description: 'Half spread around the skewed mid, bps', default: '5', min: '0', max: '5000' }),
  orderQuantity: decimalParam({ description: 'Quote size, contracts', positive: true }),
  maxPosition: decimalParam({ description: 'Largest absolute position, contracts', positive: true }),
  skewBps: decimalParam({ description: 'Quote shift against the position at maxPosition, bps', default: '5', min: '0', max: '5000' }),
  minLiquidationDistance: decimalParam({ description: 'Least distance to liquidation before quoting only to reduce, fraction of the price', default: '0.1', min: '0', max: '1' }),
  requoteTicks: integerParam({ description: 'Smallest quote move that replaces a quote, ticks', default: 2, min: 1 }),
});
