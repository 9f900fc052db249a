import { Decimal, isDecimalString, Rounding, toWire } from '../../framework/model/decimal.js';
import { ParseError, ValidationError } from '../../framework/model/errors.js';
import { candleEnd, candleStart } from '../../framework/model/candle-time.js';
import { Instrument, roundToStep } from '../../framework/model/instrument.js';
import type { CandlePeriod } from '../../framework/model/resources/candle.js';
import { parseSymbolInfo, type SymbolInfo } from '../../framework/model/resources/symbol.js';
import { scaleOf } from '../../framework/model/scaled.js';
import { defaultQuantityIncrement, inferTickSize, priceDecimals } from './candle-grid.js';
import { readLines } from './recording-reader.js';
import { RecordingWriter } from './recording-writer.js';

/** Options of {@link importCandles}. */
export interface CandleImportOptions {
  readonly csvPath: string;
  readonly outPath: string;
  readonly symbol: string;
  readonly period: CandlePeriod;
  /** Symbol fields to use instead of the ones inferred from the data (tick size from price decimals, ...). */
  readonly symbolInfo?: Partial<Record<keyof SymbolInfo, string | boolean | null>>;
}

/** What the import wrote. */
export interface CandleImportResult {
  readonly candles: number;
  readonly first: number;
  readonly last: number;
  readonly symbol: SymbolInfo;
  /** Which grid fields came from the data or the defaults rather than from the caller. */
  readonly inferred: { readonly tickSize: boolean; readonly quantityIncrement: boolean; readonly takeRate: boolean; readonly makeRate: boolean };
  /** Price texts that were off the tick grid (float artefacts, or a coarser given tick) and were written rounded to it. */
  readonly roundedPrices: number;
}

interface Row {
  readonly line: number;
  readonly start: number;
  readonly prices: readonly [string, string, string, string];
  readonly v: string;
  readonly high: Decimal;
}

const PRICE_NAMES = ['open', 'high', 'low', 'close'] as const;
const DEFAULT_RATE = '0.001';

/**
 * Turns an OHLCV CSV (timestamp, open, high, low, close, volume; the common layout of downloaded
 * history; an optional header row; timestamps in UNIX seconds, milliseconds or ISO 8601) into a
 * recording of `candles/{period}` frames. Any size: the file is streamed twice (once to check it
 * and infer the grid, once to write), holding one row at a time.
 *
 * Rules, since a CSV holds less than the stream:
 * - each candle is stamped with the local time at which it is complete (its period's end), so a
 *   backtest never sees a candle before it has closed (no look-ahead);
 * - the quote volume `q` is not in the CSV: it is estimated as volume x typical price
 *   ((high + low + close) / 3), rounded to the price and quantity decimals, and the header's note says so;
 * - unless given, the tick size is 10^-d for the most decimals d of any price, where a price with
 *   more than 15 significant digits (a float artefact such as `0.30000000000000004`) counts the
 *   decimals of its 15-digit rounding, and more than 12 decimals is refused
 *   (see `candle-grid.ts`); the volume column never sets a grid;
 * - unless given, the quantity increment is {@link defaultQuantityIncrement} of the highest price;
 * - prices off the tick grid are written rounded half down to it (the exchange's rule) and counted;
 * - fees default to 0.001 taker and maker.
 */
export async function importCandles(options: CandleImportOptions): Promise<CandleImportResult> {
  const given = options.symbolInfo ?? {};
  const survey = await surveyRows(options.csvPath, options.period);
  const quote = typeof given.quote_currency === 'string' ? given.quote_currency : inferQuote(options.symbol);
  const symbol = parseSymbolInfo({
    type: 'spot', base_currency: options.symbol.slice(0, options.symbol.length - quote.length) || null, quote_currency: quote,
    status: 'working',
    tick_size: given.tick_size === undefined ? inferTickSize(survey.priceDecimals, survey.finestPrice).toFixed() : given.tick_size,
    quantity_increment: defaultQuantityIncrement(survey.highPrice).toFixed(),
    take_rate: DEFAULT_RATE, make_rate: DEFAULT_RATE, fee_currency: quote, margin_trading: false,
    ...given,
  }, `symbol ${options.symbol}`);
  const instrument = new Instrument(options.symbol, symbol); // refuses a grid whose units are not exact integers
  const channel = `candles/${options.period}`;
  const writer = new RecordingWriter(options.outPath, {
    format: 'tradeloop.recording', version: 1, venue: 'csv import', symbols: { [options.symbol]: symbol },
    note: `imported from ${options.csvPath}: ${channel} candles stamped at their close; q estimated as volume x (high+low+close)/3`,
  });
  const qDecimals = instrument.priceScale + instrument.quantityScale;
  let roundedPrices = 0;
  const unitTick = instrument.tickUnits === 1;
  const onGrid = (text: string): string => {
    // A tick of one unit in its last decimal (0.01) holds every price of no more decimals.
    if (unitTick && scaleOf(text) <= instrument.priceScale) return text;
    const price = new Decimal(text);
    if (instrument.isValidPrice(price) || price.isZero()) return text;
    roundedPrices++;
    return roundToStep(price, symbol.tick_size, Rounding.halfDown).toFixed();
  };
  try {
    for await (const row of csvRows(options.csvPath, options.period)) {
      const [o, h, l, c] = row.prices.map(onGrid) as [string, string, string, string];
      const typical = new Decimal(h).plus(l).plus(c).dividedBy(3);
      const q = toWire(new Decimal(row.v).times(typical).toDecimalPlaces(qDecimals));
      const candle = { t: row.start, o, c, h, l, v: row.v, q };
      await writer.write({ t: candleEnd(row.start, options.period), src: 'ws/public', msg: { ch: channel, update: { [options.symbol]: [candle] } } });
    }
  } finally {
    await writer.close();
  }
  return {
    candles: survey.rows, first: survey.first, last: survey.last, symbol, roundedPrices,
    inferred: { tickSize: given.tick_size === undefined, quantityIncrement: given.quantity_increment === undefined, takeRate: given.take_rate === undefined, makeRate: given.make_rate === undefined },
  };
}

interface Survey {
  readonly rows: number;
  readonly first: number;
  readonly last: number;
  readonly priceDecimals: number;
  /** Where the price with the most decimals is (for the error when there are too many). */
  readonly finestPrice: string;
  readonly highPrice: Decimal;
}

/** First pass: validates every row and keeps only what the grid inference needs. */
async function surveyRows(path: string, period: CandlePeriod): Promise<Survey> {
  let rows = 0;
  let first = 0;
  let last = 0;
  let decimals = 0;
  let finestPrice = '';
  let highPrice = new Decimal(0);
  for await (const row of csvRows(path, period)) {
    if (rows === 0) first = row.start;
    rows++;
    last = row.start;
    for (let i = 0; i < 4; i++) {
      const d = priceDecimals(row.prices[i] as string);
      if (d > decimals) [decimals, finestPrice] = [d, `${path}:${row.line}.${PRICE_NAMES[i]}`];
    }
    if (row.high.greaterThan(highPrice)) highPrice = row.high;
  }
  if (rows === 0) throw new ValidationError(path, 'holds no candle rows');
  return { rows, first, last, priceDecimals: decimals, finestPrice, highPrice };
}

/** The CSV's candle rows, checked one at a time (columns, decimals, OHLC order, time order). */
async function* csvRows(path: string, period: CandlePeriod): AsyncGenerator<Row> {
  let line = 0;
  let previousStart = Number.NEGATIVE_INFINITY;
  for await (const text of readLines(path)) {
    line++;
    if (text.trim() === '') continue;
    const cells = text.split(/[,;\t]/).map((c) => c.trim().replace(/^"|"$/g, ''));
    if (line === 1 && !/^\d/.test(cells[0] ?? '')) continue; // header row
    if (cells.length < 6) throw new ParseError(`${path}:${line}`, 'must have 6 columns: timestamp, open, high, low, close, volume', text);
    const [ts, o, h, l, c, v] = cells as [string, string, string, string, string, string];
    const names = ['open', 'high', 'low', 'close', 'volume'];
    [o, h, l, c, v].forEach((value, i) => {
      if (!isDecimalString(value) || value.startsWith('-')) throw new ParseError(`${path}:${line}.${names[i]}`, 'must be a non-negative decimal', value);
    });
    const start = parseTimestamp(ts, `${path}:${line}.timestamp`);
    if (candleStart(start, period) !== start) throw new ParseError(`${path}:${line}.timestamp`, `is not the start of a ${period} candle`, ts);
    if (start <= previousStart) throw new ParseError(`${path}:${line}.timestamp`, 'must be later than the previous row', ts);
    previousStart = start;
    const [hi, lo] = [new Decimal(h), new Decimal(l)];
    if (hi.lessThan(lo) || hi.lessThan(o) || hi.lessThan(c) || lo.greaterThan(o) || lo.greaterThan(c)) {
      throw new ParseError(`${path}:${line}`, 'high must be >= open, close, low and low <= open, close', text);
    }
    yield { line, start, prices: [o, h, l, c], v, high: hi };
  }
}

/** UNIX seconds (10 digits or fewer), milliseconds, or ISO 8601. */
function parseTimestamp(text: string, path: string): number {
  if (/^\d+$/.test(text)) return text.length <= 10 ? Number(text) * 1000 : Number(text);
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
  if (!Number.isFinite(ms)) throw new ParseError(path, 'must be UNIX seconds, milliseconds or ISO 8601', text);
  return ms;
}

const QUOTE_SUFFIXES = ['USDT', 'USDC', 'BUSD', 'FDUSD', 'TUSD', 'DAI', 'USD', 'EUR', 'GBP', 'BTC', 'ETH', 'BNB'];

function inferQuote(symbol: string): string {
  const quote = QUOTE_SUFFIXES.find((q) => symbol.endsWith(q) && symbol.length > q.length);
  if (quote === undefined) throw new ValidationError('quote_currency', `cannot be inferred from ${symbol}; give it explicitly`);
  return quote;
}
