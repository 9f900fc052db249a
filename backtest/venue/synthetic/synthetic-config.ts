import { Decimal, isDecimalString } from '../../../framework/model/decimal.js';
import { ValidationError } from '../../../framework/model/errors.js';
import { Instrument } from '../../../framework/model/instrument.js';
import type { SymbolInfo } from '../../../framework/model/resources/symbol.js';

/** One simulated symbol: its API v3 Symbol fields and the parameters of its market. */
export interface SyntheticSymbolOptions {
  /** Symbol code, e.g. `BTCUSDT`. */
  readonly symbol: string;
  /** Price grid; default from the known-symbol table, else `0.01`. */
  readonly tickSize?: string;
  /** Quantity grid; default from the known-symbol table, else `0.001`. */
  readonly quantityIncrement?: string;
  /** Taker fee rate; default `0.0025`. */
  readonly takeRate?: string;
  /** Maker fee rate (may be negative); default `0.001`. */
  readonly makeRate?: string;
  /** Whether the pair has isolated margin trading; default true (the exchange offers it on its major pairs). */
  readonly marginTrading?: boolean;
  /** The pair's `max_initial_leverage` when it has margin trading, at least 1; default `10`. */
  readonly maxLeverage?: string;
  /** Default: the code without its quote-currency suffix. */
  readonly baseCurrency?: string;
  /** Default: a known suffix of the code (USDT, USDC, USD, EUR, BTC, ETH). */
  readonly quoteCurrency?: string;
  /** First mid price, on the tick grid; default from the known-symbol table, else `100`. */
  readonly startPrice?: string;
  /** Annualised volatility of the mid (0.6 = 60 %); default 0.6. */
  readonly volatility?: number;
  /** GARCH(1,1) reaction to the last squared return; default 0.03. */
  readonly garchAlpha?: number;
  /** GARCH(1,1) persistence of the variance; default 0.965 (alpha + beta must stay below 1). */
  readonly garchBeta?: number;
  /** Typical quoted spread in basis points of the start price; default 2. */
  readonly spreadBps?: number;
  /** Mean distance between adjacent levels near the touch, in basis points; default 1. */
  readonly levelGapBps?: number;
  /** Levels per side in the first snapshot; default 60. */
  readonly levels?: number;
  /** Fewest levels a side may have after any message; default 50. */
  readonly minLevels?: number;
  /** Most levels a side may have; default 120. */
  readonly maxLevels?: number;
  /** Median limit order quantity; default about 500 quote units for USD-like quotes, else 100 lots. */
  readonly orderSize?: string;
  /** Median market order quantity; default `orderSize`. */
  readonly marketOrderSize?: string;
  /** Limit order arrivals per second; default 8. */
  readonly limitRate?: number;
  /** Cancel arrivals per second; default 6. */
  readonly cancelRate?: number;
  /** Market order arrivals per second; default 1.5. */
  readonly marketRate?: number;
  /** Relative weights of limit orders joining the touch, improving it, or resting deeper; default 4 / 2 / 4. */
  readonly joinWeight?: number;
  readonly improveWeight?: number;
  readonly deepWeight?: number;
  /**
   * When the mid moves through resting quotes, the chance that they are taken by a market order
   * (trades) rather than cancelled by their owners; default 0.3.
   */
  readonly sweepProbability?: number;
}

/** A symbol's parameters after defaults and validation, in integer ticks and lots where they are prices or sizes. */
export interface ResolvedSymbol {
  readonly symbol: string;
  readonly info: SymbolInfo;
  readonly instrument: Instrument;
  readonly startTicks: number;
  readonly annualVolatility: number;
  readonly garchAlpha: number;
  readonly garchBeta: number;
  readonly halfSpreadTicks: number;
  /** Mean level gap in ticks (a model parameter, may be fractional). */
  readonly levelGapTicks: number;
  /** Levels farther than this from the mid are cancelled. */
  readonly maxDepthTicks: number;
  /** The mid is reflected above this, so the bid side always has room above zero. */
  readonly floorTicks: number;
  readonly levels: number;
  readonly minLevels: number;
  readonly maxLevels: number;
  readonly orderLots: number;
  readonly marketLots: number;
  readonly limitRate: number;
  readonly cancelRate: number;
  readonly marketRate: number;
  /** join, improve, deep weights normalised to sum 1. */
  readonly placement: readonly [join: number, improve: number, deep: number];
  readonly sweepProbability: number;
}

interface KnownSymbol {
  readonly tickSize: string;
  readonly quantityIncrement: string;
  readonly startPrice: string;
}

/** Sensible grids and prices for the symbols a demo reaches for first. */
const KNOWN_SYMBOLS: Readonly<Record<string, KnownSymbol>> = {
  BTCUSDT: { tickSize: '0.01', quantityIncrement: '0.00001', startPrice: '60000.00' },
  ETHUSDT: { tickSize: '0.01', quantityIncrement: '0.0001', startPrice: '3000.00' },
  SOLUSDT: { tickSize: '0.001', quantityIncrement: '0.01', startPrice: '150.000' },
};

const QUOTE_SUFFIXES = ['USDT', 'USDC', 'USD', 'EUR', 'BTC', 'ETH'] as const;
const USD_LIKE = new Set(['USDT', 'USDC', 'USD', 'EUR']);
/** Notional of a default order in USD-like quotes: a retail-sized clip. */
const DEFAULT_ORDER_NOTIONAL = '500';
const DEFAULT_ORDER_LOTS = 100;

/** Default leverage of a synthetic margin pair: the order of what the exchange grants on its major pairs. */
const DEFAULT_MARGIN_LEVERAGE = '10';

/** `margin_trading` and, only with it (document 000), `max_initial_leverage`. */
function marginFields(options: SyntheticSymbolOptions, path: string): Pick<SymbolInfo, 'margin_trading' | 'max_initial_leverage'> {
  const marginTrading = options.marginTrading ?? true;
  if (typeof marginTrading !== 'boolean') throw new ValidationError(`${path}.marginTrading`, 'must be true or false', marginTrading);
  if (!marginTrading) {
    if (options.maxLeverage !== undefined) throw new ValidationError(`${path}.maxLeverage`, 'needs marginTrading', options.maxLeverage);
    return { margin_trading: false };
  }
  const leverage = decimal(options.maxLeverage ?? DEFAULT_MARGIN_LEVERAGE, `${path}.maxLeverage`);
  if (leverage.lessThan(1)) throw new ValidationError(`${path}.maxLeverage`, 'must be at least 1', options.maxLeverage);
  return { margin_trading: true, max_initial_leverage: leverage };
}

/** Validates one symbol's options and fills in the defaults; `path` prefixes field names in errors. */
export function resolveSymbol(input: string | SyntheticSymbolOptions, path: string): ResolvedSymbol {
  const options: SyntheticSymbolOptions = typeof input === 'string' ? { symbol: input } : input;
  const symbol = options.symbol;
  if (typeof symbol !== 'string' || !/^[A-Z0-9]{2,30}$/.test(symbol)) {
    throw new ValidationError(`${path}.symbol`, 'must be 2 to 30 upper-case letters or digits', symbol);
  }
  const known = KNOWN_SYMBOLS[symbol];
  const suffix = QUOTE_SUFFIXES.find((q) => symbol.endsWith(q) && symbol.length > q.length);
  const quoteCurrency = options.quoteCurrency ?? suffix;
  if (quoteCurrency === undefined) {
    throw new ValidationError(`${path}.quoteCurrency`, `is required when the symbol does not end in ${QUOTE_SUFFIXES.join(', ')}`, symbol);
  }
  const baseCurrency = options.baseCurrency ?? (symbol.endsWith(quoteCurrency) ? symbol.slice(0, -quoteCurrency.length) : symbol);
  const tickSize = positiveDecimal(options.tickSize ?? known?.tickSize ?? '0.01', `${path}.tickSize`);
  const quantityIncrement = positiveDecimal(options.quantityIncrement ?? known?.quantityIncrement ?? '0.001', `${path}.quantityIncrement`);
  const info: SymbolInfo = {
    type: 'spot',
    expiry: null,
    base_currency: baseCurrency,
    quote_currency: quoteCurrency,
    status: 'working',
    quantity_increment: normalized(quantityIncrement),
    tick_size: normalized(tickSize),
    take_rate: decimal(options.takeRate ?? '0.0025', `${path}.takeRate`),
    make_rate: decimal(options.makeRate ?? '0.001', `${path}.makeRate`),
    fee_currency: quoteCurrency,
    ...marginFields(options, path),
  };
  const instrument = new Instrument(symbol, info);
  const startPrice = positiveDecimal(options.startPrice ?? known?.startPrice ?? '100', `${path}.startPrice`);
  const startTicks = gridCount(instrument.priceToTicks(startPrice.toFixed()), `${path}.startPrice`, `a multiple of tickSize ${tickSize.toFixed()}`, startPrice);

  // The mid may wander up to 1000x its start (a reflecting ceiling); scaled prices must stay exact integers there.
  if (startTicks * instrument.tickUnits > Number.MAX_SAFE_INTEGER / 1000) {
    throw new ValidationError(`${path}.startPrice`, 'has too many ticks for exact integer prices (use a coarser tickSize)', startPrice.toFixed());
  }
  const spreadBps = finite(options.spreadBps ?? 2, `${path}.spreadBps`, 0, 10_000);
  const levelGapBps = finite(options.levelGapBps ?? 1, `${path}.levelGapBps`, 0, 10_000);
  const levels = integer(options.levels ?? 60, `${path}.levels`, 1, 10_000);
  const minLevels = integer(options.minLevels ?? Math.min(50, levels), `${path}.minLevels`, 1, levels);
  const maxLevels = integer(options.maxLevels ?? Math.max(120, 2 * levels), `${path}.maxLevels`, levels, 100_000);
  const halfSpreadTicks = Math.max(1, Math.round((startTicks * spreadBps) / 20_000));
  const levelGapTicks = Math.max(1, (startTicks * levelGapBps) / 10_000);
  const maxDepthTicks = halfSpreadTicks + Math.ceil(4 * maxLevels * levelGapTicks);
  const floorTicks = 2 * (maxDepthTicks + halfSpreadTicks);
  if (startTicks < 4 * floorTicks) {
    throw new ValidationError(
      `${path}.startPrice`,
      `leaves too little room below the book: need at least ${4 * floorTicks} ticks for this spread, gap and depth (lower levelGapBps, spreadBps or maxLevels, or use a finer tickSize)`,
      startPrice.toFixed(),
    );
  }

  const defaultOrder = USD_LIKE.has(quoteCurrency)
    ? Decimal.max(quantityIncrement, new Decimal(DEFAULT_ORDER_NOTIONAL).dividedBy(startPrice).dividedBy(quantityIncrement).floor().times(quantityIncrement))
    : quantityIncrement.times(DEFAULT_ORDER_LOTS);
  const orderLots = lots(instrument, options.orderSize ?? defaultOrder.toFixed(), `${path}.orderSize`);
  const marketLots = options.marketOrderSize === undefined ? orderLots : lots(instrument, options.marketOrderSize, `${path}.marketOrderSize`);

  const garchAlpha = finite(options.garchAlpha ?? 0.03, `${path}.garchAlpha`, 0, 1);
  const garchBeta = finite(options.garchBeta ?? 0.965, `${path}.garchBeta`, 0, 1);
  if (garchAlpha + garchBeta >= 1) {
    throw new ValidationError(`${path}.garchBeta`, 'garchAlpha + garchBeta must be below 1 (a stationary variance)', garchAlpha + garchBeta);
  }
  const join = finite(options.joinWeight ?? 4, `${path}.joinWeight`, 0, 1e6);
  const improve = finite(options.improveWeight ?? 2, `${path}.improveWeight`, 0, 1e6);
  const deep = finite(options.deepWeight ?? 4, `${path}.deepWeight`, 0, 1e6);
  const weights = join + improve + deep;
  if (weights <= 0) throw new ValidationError(`${path}.joinWeight`, 'joinWeight + improveWeight + deepWeight must be positive', weights);
  return {
    symbol,
    info,
    instrument,
    startTicks,
    annualVolatility: finite(options.volatility ?? 0.6, `${path}.volatility`, 0, 100),
    garchAlpha,
    garchBeta,
    halfSpreadTicks,
    levelGapTicks,
    maxDepthTicks,
    floorTicks,
    levels,
    minLevels,
    maxLevels,
    orderLots,
    marketLots,
    limitRate: finite(options.limitRate ?? 8, `${path}.limitRate`, 0, 1e6),
    cancelRate: finite(options.cancelRate ?? 6, `${path}.cancelRate`, 0, 1e6),
    marketRate: finite(options.marketRate ?? 1.5, `${path}.marketRate`, 0, 1e6),
    placement: [join / weights, improve / weights, deep / weights],
    sweepProbability: finite(options.sweepProbability ?? 0.3, `${path}.sweepProbability`, 0, 1),
  };
}

/** The default Symbol of a code, as {@link resolveSymbol} would build it. */
export function defaultSymbolInfo(symbol: string): SymbolInfo {
  return resolveSymbol(symbol, 'symbol').info;
}

function decimal(text: unknown, field: string): Decimal {
  if (typeof text !== 'string' || !isDecimalString(text)) throw new ValidationError(field, 'must be a decimal number text', text);
  return new Decimal(text);
}

function positiveDecimal(text: unknown, field: string): Decimal {
  const d = decimal(text, field);
  if (!d.isPositive() || d.isZero()) throw new ValidationError(field, 'must be greater than zero', text);
  return d;
}

/** Drops trailing zeros so the grid's scale is its real number of decimals. */
function normalized(d: Decimal): Decimal {
  return new Decimal(d.toFixed());
}

function gridCount(count: number, field: string, rule: string, value: Decimal): number {
  if (!Number.isSafeInteger(count) || count <= 0) throw new ValidationError(field, `must be ${rule}`, value.toFixed());
  return count;
}

function lots(instrument: Instrument, text: string, field: string): number {
  const d = positiveDecimal(text, field);
  return gridCount(instrument.quantityToLots(d.toFixed()), field, `a multiple of quantityIncrement ${instrument.quantityIncrement.toFixed()}`, d);
}

function finite(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new ValidationError(field, `must be a number in ${min}..${max}`, value);
  }
  return value;
}

function integer(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ValidationError(field, `must be an integer in ${min}..${max}`, value);
  }
  return value;
}
