import { ParseError, ValidationError } from '../../model/errors.js';
import { parseChannel, type ChannelInfo } from '../../model/stream/channel.js';

/** Largest history `limit` a subscription may ask for (document 002, Limits). */
export const MAX_HISTORY_LIMIT = 1000;

/** A validated market-data channel name and what a subscription to it may carry. */
export interface PublicChannel extends ChannelInfo {
  readonly ch: string;
  /** Whether `symbols: ["*"]` (all symbols) is allowed: the ticker channels. */
  readonly wildcard: boolean;
  /** Whether the channel takes a history `limit` (snapshot size): trades and candles. */
  readonly history: boolean;
}

/** Extra subscribe parameters besides `symbols`. */
export interface SubscribeParams {
  /** History entries sent in the snapshot, 0-1000 (trades and candles only). */
  readonly limit?: number;
}

/**
 * Validates a channel name against every channel of the spec and the notes (the same grammar the
 * frame parsers use): trades, candles/{period}, ticker/{speed}[/batch], ticker/price/{speed}[/batch],
 * orderbook/full, orderbook/{D5|D10|D20}/{speed}[/batch], orderbook/top/{speed}[/batch].
 */
export function parsePublicChannel(ch: string): PublicChannel {
  if (typeof ch !== 'string') throw new ValidationError('ch', 'must be a string', ch);
  let info: ChannelInfo;
  try {
    info = parseChannel(ch);
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    throw new ValidationError('ch', 'must be a documented market-data channel (trades, candles/{period}, ticker/{1s|3s}[/batch], '
      + 'ticker/price/{1s|3s}[/batch], orderbook/full, orderbook/{D5|D10|D20}/{100ms|500ms|1000ms}[/batch], orderbook/top/{speed}[/batch])', ch);
  }
  return {
    ...info,
    ch,
    wildcard: info.kind === 'ticker' || info.kind === 'tickerPrice',
    history: info.kind === 'trades' || info.kind === 'candles',
  };
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
