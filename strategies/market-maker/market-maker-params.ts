import { type Decimal, decimalParam, defineParams, integerParam, type ParamSpec } from 'tradeloop';

/** Parameters of the market maker, validated and with defaults filled. */
export interface MarketMakerParams {
  /** Distance of each quote from the (skewed) mid, in basis points. */
  readonly halfSpreadBps: Decimal;
  /** Size of each quote, base units (rounded down to the symbol's lot). */
  readonly orderQuantity: Decimal;
  /** Largest absolute position, base units; the side that would exceed it is not quoted. */
  readonly maxInventory: Decimal;
  /** Shift of both quotes, in basis points, at a position of maxInventory. */
  readonly skewBps: Decimal;
  /** Smallest move of a quote's target, in basis points, that is worth a replace. */
  readonly requoteBps: Decimal;
  /** Smallest time between two moves of one quote, and the back-off after a refusal, ms. */
  readonly minRequoteIntervalMs: number;
}

/** A parameter whose default is "absent" (null), resolved from other parameters afterwards. */
function optional<T>(spec: ParamSpec<T>): ParamSpec<T | null> {
  return { description: spec.description, default: null, read: (raw, field) => spec.read(raw, field) };
}

const readRaw = defineParams({
  halfSpreadBps: decimalParam({ description: 'Half spread around the skewed mid, bps', default: '10', min: '0', max: '5000' }),
  orderQuantity: decimalParam({ description: 'Quote size, base units', positive: true }),
  maxInventory: decimalParam({ description: 'Largest absolute position, base units', positive: true }),
  skewBps: optional(decimalParam({ description: 'Quote shift at maxInventory, bps (default: halfSpreadBps)', min: '0', max: '5000' })),
  requoteBps: decimalParam({ description: 'Smallest target move that replaces a quote, bps', default: '2', min: '0' }),
  minRequoteIntervalMs: integerParam({ description: 'Smallest time between moves of a quote (and back-off after a refusal), ms', default: 250, min: 0 }),
});

/** Validates raw market-maker parameters (ValidationError naming the field) and fills defaults. */
export function parseMarketMakerParams(raw: unknown): MarketMakerParams {
  const p = readRaw(raw);
  return { ...p, skewBps: p.skewBps ?? p.halfSpreadBps };
}
