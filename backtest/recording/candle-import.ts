import { Decimal, isDecimalString, toWire } from '../../framework/model/decimal.js';
import { ParseError, ValidationError } from '../../framework/model/errors.js';
import { candleEnd, candleStart } from '../../framework/model/candle-time.js';
import type { CandlePeriod } from '../../framework/model/resources/candle.js';
import { parseSymbolInfo, type SymbolInfo } from '../../framework/model/resources/symbol.js';
import { scaleOf } from '../../framework/model/scaled.js';
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
}

interface Row {
  readonly start: number;
  readonly o: string;
  readonly h: string;
  readonly l: string;
  readonly c: string;
  readonly v: string;
}

/**
 * Turns an OHLCV CSV (timestamp, open, high, low, close, volume; the common layout of downloaded
 * history; an optional header row; timestamps in UNIX seconds, milliseconds or ISO 8601) into a
 * recording of `candles/{period}` frames.
 *
 * Rules, since a CSV holds less than the stream:
 * - each candle is stamped with the local time at which it is complete (its period's end), so a
 *   backtest never sees a candle before it has closed (no look-ahead);
 * - the quote volume `q` is not in the CSV: it is estimated as volume x typical price
 *   ((high + low + close) / 3), exactly in decimals, and the header's note says so;
 * - the symbol's tick size and quantity increment are inferred from the most decimals seen in the
 *   prices and volumes unless given; fees default to 0.001 taker and maker.
 */
export async function importCandles(options: CandleImportOptions): Promise<CandleImportResult> {
  const rows = await readRows(options.csvPath, options.period);
  if (rows.length === 0) throw new ValidationError(options.csvPath, 'holds no candle rows');
  const priceScale = Math.max(...rows.flatMap((r) => [r.o, r.h, r.l, r.c].map(scaleOf)));
  const volumeScale = Math.max(...rows.map((r) => scaleOf(r.v)));
  const quote = typeof options.symbolInfo?.quote_currency === 'string' ? options.symbolInfo.quote_currency : inferQuote(options.symbol);
  const symbol = parseSymbolInfo({
    type: 'spot', base_currency: options.symbol.slice(0, options.symbol.length - quote.length) || null, quote_currency: quote,
    status: 'working', tick_size: stepOf(priceScale), quantity_increment: stepOf(volumeScale),
    take_rate: '0.001', make_rate: '0.001', fee_currency: quote, margin_trading: false,
    ...options.symbolInfo,
  }, `symbol ${options.symbol}`);
  const channel = `candles/${options.period}`;
  const writer = new RecordingWriter(options.outPath, {
    format: 'tradeloop.recording', version: 1, venue: 'csv import', symbols: { [options.symbol]: symbol },
    note: `imported from ${options.csvPath}: ${channel} candles stamped at their close; q estimated as volume x (high+low+close)/3`,
  });
  try {
    for (const row of rows) {
      const typical = new Decimal(row.h).plus(row.l).plus(row.c).dividedBy(3);
      const q = toWire(new Decimal(row.v).times(typical).toDecimalPlaces(priceScale + volumeScale));
      const candle = { t: row.start, o: row.o, c: row.c, h: row.h, l: row.l, v: row.v, q };
      await writer.write({ t: candleEnd(row.start, options.period), src: 'ws/public', msg: { ch: channel, update: { [options.symbol]: [candle] } } });
    }
  } finally {
    await writer.close();
  }
  return { candles: rows.length, first: rows[0]!.start, last: rows[rows.length - 1]!.start, symbol };
}

async function readRows(path: string, period: CandlePeriod): Promise<Row[]> {
  const rows: Row[] = [];
  let line = 0;
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
    const previous = rows[rows.length - 1];
    if (previous && start <= previous.start) throw new ParseError(`${path}:${line}.timestamp`, 'must be later than the previous row', ts);
    const [hi, lo] = [new Decimal(h), new Decimal(l)];
    if (hi.lessThan(lo) || hi.lessThan(o) || hi.lessThan(c) || lo.greaterThan(o) || lo.greaterThan(c)) {
      throw new ParseError(`${path}:${line}`, 'high must be >= open, close, low and low <= open, close', text);
    }
    rows.push({ start, o, h, l, c, v });
  }
  return rows;
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

function stepOf(scale: number): string {
  return scale === 0 ? '1' : `0.${'0'.repeat(scale - 1)}1`;
}
