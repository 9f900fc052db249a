import { ValidationError } from '../../model/errors.js';

/** Candle periods (document 002). */
export const CANDLE_PERIODS = ['M1', 'M3', 'M5', 'M15', 'M30', 'H1', 'H4', 'D1', 'D7', '1M'] as const;
/** Ticker speeds (document 002, Limits). */
export const TICKER_SPEEDS = ['1s', '3s'] as const;
/** Depths of the partial order book channels. */
export const BOOK_DEPTHS = ['D5', 'D10', 'D20'] as const;
/** Speeds of the partial and top-of-book channels. */
export const BOOK_SPEEDS = ['100ms', '500ms', '1000ms'] as const;
/** Largest history `limit` a subscription may ask for. */
export const MAX_HISTORY_LIMIT = 1000;

/** What a channel carries; decides which parser a notification goes to. */
export type ChannelKind = 'trades' | 'candles' | 'ticker' | 'ticker-price' | 'orderbook-full' | 'orderbook-partial' | 'orderbook-top';

/** A validated market-data channel name and what it allows. */
export interface PublicChannel {
  readonly ch: string;
  readonly kind: ChannelKind;
  /** `/batch` channels combine several symbols per notification. */
  readonly batch: boolean;
  /** Whether `symbols: ["*"]` (all symbols) is allowed. */
  readonly wildcard: boolean;
  /** Whether the channel takes a history `limit` (snapshot size). */
  readonly history: boolean;
}

/** Extra subscribe parameters besides `symbols`. */
export interface SubscribeParams {
  /** History entries sent in the snapshot, 0-1000 (trades and candles only). */
  readonly limit?: number;
}

const has = (values: readonly string[], value: string | undefined): boolean => value !== undefined && values.includes(value);

/**
 * Parses and validates a channel name against every channel of the spec and the notes:
 * trades, candles/{period}, ticker/{speed}[/batch], ticker/price/{speed}[/batch], orderbook/full,
 * orderbook/{D5|D10|D20}/{speed}[/batch], orderbook/top/{speed}[/batch].
 */
export function parsePublicChannel(ch: string): PublicChannel {
  if (typeof ch !== 'string') throw new ValidationError('ch', 'must be a string', ch);
  const parts = ch.split('/');
  const batch = parts.length > 2 && parts[parts.length - 1] === 'batch';
  const core = batch ? parts.slice(0, -1) : parts;
  const [head, a, b] = core;
  const make = (kind: ChannelKind, wildcard = false, history = false): PublicChannel => ({ ch, kind, batch, wildcard, history });
  if (!batch) {
    if (core.length === 1 && head === 'trades') return make('trades', false, true);
    if (core.length === 2 && head === 'candles' && has(CANDLE_PERIODS, a)) return make('candles', false, true);
    if (core.length === 2 && head === 'orderbook' && a === 'full') return make('orderbook-full');
  }
  if (core.length === 2 && head === 'ticker' && has(TICKER_SPEEDS, a)) return make('ticker', true);
  if (core.length === 3 && head === 'ticker' && a === 'price' && has(TICKER_SPEEDS, b)) return make('ticker-price', true);
  if (core.length === 3 && head === 'orderbook' && a === 'top' && has(BOOK_SPEEDS, b)) return make('orderbook-top');
  if (core.length === 3 && head === 'orderbook' && has(BOOK_DEPTHS, a) && has(BOOK_SPEEDS, b)) return make('orderbook-partial');
  throw new ValidationError('ch', 'must be a documented market-data channel (trades, candles/{period}, ticker/{1s|3s}[/batch], '
    + 'ticker/price/{1s|3s}[/batch], orderbook/full, orderbook/{D5|D10|D20}/{100ms|500ms|1000ms}[/batch], orderbook/top/{speed}[/batch])', ch);
}

const SYMBOL = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Validates a symbol list for `channel`: non-empty, well-formed, `*` only alone and only where allowed. Dedups. */
export function validateSymbols(channel: PublicChannel, symbols: readonly string[]): string[] {
  if (!Array.isArray(symbols) || symbols.length === 0) throw new ValidationError('symbols', 'must be a non-empty array', symbols);
  const out = new Set<string>();
  for (const symbol of symbols) {
    if (symbol === '*') {
      if (!channel.wildcard) throw new ValidationError('symbols', `"*" is not allowed on ${channel.ch}`);
      if (symbols.length > 1) throw new ValidationError('symbols', '"*" must be the only symbol');
    } else if (typeof symbol !== 'string' || !SYMBOL.test(symbol)) {
      throw new ValidationError('symbols', 'each symbol must be a symbol code such as BTCUSDT', symbol);
    }
    out.add(symbol);
  }
  return [...out];
}

/** Validates the extra parameters for `channel`. */
export function validateSubscribeParams(channel: PublicChannel, params: SubscribeParams | undefined): SubscribeParams {
  if (params === undefined) return {};
  const allowed = new Set(channel.history ? ['limit'] : []);
  for (const key of Object.keys(params)) {
    if (!allowed.has(key)) throw new ValidationError(`params.${key}`, `is not a parameter of ${channel.ch}`);
  }
  const limit = params.limit;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0 || limit > MAX_HISTORY_LIMIT)) {
    throw new ValidationError('params.limit', `must be an integer in 0..${MAX_HISTORY_LIMIT}`, limit);
  }
  return limit === undefined ? {} : { limit };
}
