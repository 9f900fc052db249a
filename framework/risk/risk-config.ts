import { Decimal, isDecimalString } from '../model/decimal.js';
import { ValidationError } from '../model/errors.js';

/** Names of the checks, in the order the gate runs them (cheap first). */
export const CHECK_NAMES = [
  'kill-switch',
  'order-rate',
  'instrument-status',
  'grid',
  'price-band',
  'max-notional',
  'max-position',
  'futures-risk-limit',
  'leverage',
  'liquidation-distance',
  'market-buy-reserve',
  'balance',
] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

/** Per-symbol limits; a symbol without an entry gets `defaultLimits`. */
export interface SymbolLimits {
  /** Largest price x quantity of one order, in the quote currency. */
  readonly maxOrderNotional?: Decimal;
  /** Largest absolute position (base units or contracts), counting open orders on the same side. */
  readonly maxPosition?: Decimal;
  /** Margin and futures: the largest account leverage at which orders may open or grow a position. */
  readonly maxLeverage?: Decimal;
  /** Margin and futures: the least distance to liquidation, as a fraction of the price (0.1 = 10 %). */
  readonly minLiquidationDistance?: Decimal;
}

/** The drawdown / daily-loss kill switch. */
export interface KillSwitchConfig {
  /** Halt when (peak - equity) / peak reaches this fraction (0.2 = 20 %). */
  readonly maxDrawdown?: Decimal;
  /** Halt when day-start equity - equity reaches this amount (equity currency). */
  readonly maxDailyLoss?: Decimal;
  /** When halted, also flatten: cancel open orders and close positions (`KillSwitch.flattenIntents`). */
  readonly flatten: boolean;
}

/** Risk gate configuration; build it with {@link parseRiskConfig} to validate and fill defaults. */
export interface RiskConfig {
  /** Checks that run; the gate keeps the fixed order of {@link CHECK_NAMES}. */
  readonly checks: readonly CheckName[];
  readonly defaultLimits: SymbolLimits;
  readonly symbolLimits: Readonly<Record<string, SymbolLimits>>;
  /** Largest |price - mid| / mid for a priced order (fat finger); 0.05 = 5 %. */
  readonly priceBand: Decimal;
  /** Trading requests allowed per `orderRateWindowMs` (the exchange allows 300 per second). */
  readonly maxOrdersPerWindow: number;
  readonly orderRateWindowMs: number;
  /** Slippage allowance of the market-buy reserve; document 001 uses 10 %. */
  readonly marketBuySlippage: Decimal;
  readonly killSwitch: KillSwitchConfig;
}

/** Defaults: every check on, 5 % band, 100 requests a second (a third of the exchange's 300/s). */
export const DEFAULT_RISK_CONFIG: RiskConfig = Object.freeze({
  checks: CHECK_NAMES,
  defaultLimits: {},
  symbolLimits: {},
  priceBand: new Decimal('0.05'),
  maxOrdersPerWindow: 100,
  orderRateWindowMs: 1000,
  marketBuySlippage: new Decimal('0.1'),
  killSwitch: { flatten: false },
});

/** The exchange's trading-request limit per second (document 001, limits). */
export const EXCHANGE_ORDER_RATE_PER_SECOND = 300;

/**
 * Validates a raw config (parsed YAML or an object literal) and fills the defaults. Decimals are
 * accepted as text or as numbers (read through their shortest text). Throws a ValidationError
 * naming the field and the rule.
 */
export function parseRiskConfig(raw: unknown = {}): RiskConfig {
  const o = record(raw, 'risk');
  const d = DEFAULT_RISK_CONFIG;
  const maxOrdersPerWindow = o['maxOrdersPerWindow'] === undefined ? d.maxOrdersPerWindow : positiveInt(o['maxOrdersPerWindow'], 'risk.maxOrdersPerWindow');
  const orderRateWindowMs = o['orderRateWindowMs'] === undefined ? d.orderRateWindowMs : positiveInt(o['orderRateWindowMs'], 'risk.orderRateWindowMs');
  if (maxOrdersPerWindow * 1000 >= EXCHANGE_ORDER_RATE_PER_SECOND * orderRateWindowMs) {
    throw new ValidationError('risk.maxOrdersPerWindow', `must stay under the exchange's ${EXCHANGE_ORDER_RATE_PER_SECOND} requests per second`, maxOrdersPerWindow);
  }
  const symbolLimitsRaw = record(o['symbolLimits'] ?? {}, 'risk.symbolLimits');
  const symbolLimits: Record<string, SymbolLimits> = {};
  for (const [symbol, limits] of Object.entries(symbolLimitsRaw)) symbolLimits[symbol] = parseLimits(limits, `risk.symbolLimits.${symbol}`);
  const kill = record(o['killSwitch'] ?? {}, 'risk.killSwitch');
  const flatten = kill['flatten'] ?? false;
  if (typeof flatten !== 'boolean') throw new ValidationError('risk.killSwitch.flatten', 'must be a boolean', flatten);
  return {
    checks: parseChecks(o['checks']),
    defaultLimits: parseLimits(o['defaultLimits'] ?? {}, 'risk.defaultLimits'),
    symbolLimits,
    priceBand: o['priceBand'] === undefined ? d.priceBand : positiveDecimal(o['priceBand'], 'risk.priceBand'),
    maxOrdersPerWindow,
    orderRateWindowMs,
    marketBuySlippage: o['marketBuySlippage'] === undefined ? d.marketBuySlippage : nonNegativeDecimal(o['marketBuySlippage'], 'risk.marketBuySlippage'),
    killSwitch: {
      maxDrawdown: optional(kill['maxDrawdown'], 'risk.killSwitch.maxDrawdown', fraction),
      maxDailyLoss: optional(kill['maxDailyLoss'], 'risk.killSwitch.maxDailyLoss', positiveDecimal),
      flatten,
    },
  };
}

/** The limits that apply to `symbol`. */
export function limitsFor(config: RiskConfig, symbol: string): SymbolLimits {
  return config.symbolLimits[symbol] ?? config.defaultLimits;
}

function parseChecks(value: unknown): readonly CheckName[] {
  if (value === undefined) return CHECK_NAMES;
  if (!Array.isArray(value)) throw new ValidationError('risk.checks', 'must be a list of check names', value);
  for (const [i, name] of value.entries()) {
    if (!(CHECK_NAMES as readonly unknown[]).includes(name)) {
      throw new ValidationError(`risk.checks[${i}]`, `must be one of ${CHECK_NAMES.join(', ')}`, name);
    }
  }
  return CHECK_NAMES.filter((name) => value.includes(name));
}

function parseLimits(value: unknown, path: string): SymbolLimits {
  const o = record(value, path);
  return {
    maxOrderNotional: optional(o['maxOrderNotional'], `${path}.maxOrderNotional`, positiveDecimal),
    maxPosition: optional(o['maxPosition'], `${path}.maxPosition`, positiveDecimal),
    maxLeverage: optional(o['maxLeverage'], `${path}.maxLeverage`, positiveDecimal),
    minLiquidationDistance: optional(o['minLiquidationDistance'], `${path}.minLiquidationDistance`, fraction),
  };
}

function record(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ValidationError(path, 'must be a mapping', value);
  return value as Record<string, unknown>;
}

function optional(value: unknown, path: string, parse: (v: unknown, p: string) => Decimal): Decimal | undefined {
  return value === undefined || value === null ? undefined : parse(value, path);
}

function decimal(value: unknown, path: string): Decimal {
  if (value instanceof Decimal) return value;
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || !isDecimalString(text)) throw new ValidationError(path, 'must be a decimal number', value);
  return new Decimal(text);
}

function nonNegativeDecimal(value: unknown, path: string): Decimal {
  const d = decimal(value, path);
  if (d.isNegative()) throw new ValidationError(path, 'must not be negative', d.toFixed());
  return d;
}

function positiveDecimal(value: unknown, path: string): Decimal {
  const d = decimal(value, path);
  if (!d.isPositive() || d.isZero()) throw new ValidationError(path, 'must be greater than zero', d.toFixed());
  return d;
}

function fraction(value: unknown, path: string): Decimal {
  const d = positiveDecimal(value, path);
  if (d.greaterThan(1)) throw new ValidationError(path, 'must be a fraction in (0, 1]', d.toFixed());
  return d;
}

function positiveInt(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) throw new ValidationError(path, 'must be a positive integer', value);
  return value;
}
