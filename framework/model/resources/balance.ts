import type { Decimal } from '../decimal.js';
import { asObject, mapArray, optDecimal, optString, reqDecimal, reqString } from '../wire.js';
import { wireRecord } from './wire-values.js';

/** API v3 trading balance (`GET /api/3/{spot|futures}/balance`). */
export interface TradingBalance {
  /** Omitted by the single-currency endpoint, whose path names the currency. */
  readonly currency?: string;
  /** Usable for trading or transfer to the wallet. */
  readonly available: Decimal;
  /** Reserved for active orders and incomplete transfers (futures: also for margin). */
  readonly reserved: Decimal;
  /** Reserved for margin trading. */
  readonly reserved_margin?: Decimal;
}

/** Parses a trading balance. */
export function parseTradingBalance(value: unknown, path = 'balance'): TradingBalance {
  const o = asObject(value, path);
  return {
    currency: optString(o, 'currency', path),
    available: reqDecimal(o, 'available', path),
    reserved: reqDecimal(o, 'reserved', path),
    reserved_margin: optDecimal(o, 'reserved_margin', path),
  };
}

/** Parses the array response of `GET /api/3/spot/balance`. */
export function parseTradingBalanceList(value: unknown, path = 'balances'): TradingBalance[] {
  return mapArray(value, path, (v, p) => parseTradingBalance(v, p));
}

/** Wire form of a trading balance. */
export function tradingBalanceToWire(b: TradingBalance): Record<string, unknown> {
  return wireRecord({ ...b });
}

/** API v3 wallet balance (`GET /api/3/wallet/balance`); zero balances are not listed. */
export interface WalletBalance {
  readonly currency: string;
  /** Available for withdrawal or transfer to the trading account. */
  readonly available: Decimal;
  /** Reserved for incomplete transactions. */
  readonly reserved: Decimal;
}

/** Parses a wallet balance. */
export function parseWalletBalance(value: unknown, path = 'balance'): WalletBalance {
  const o = asObject(value, path);
  return {
    currency: reqString(o, 'currency', path),
    available: reqDecimal(o, 'available', path),
    reserved: reqDecimal(o, 'reserved', path),
  };
}

/** Parses the array response of `GET /api/3/wallet/balance`. */
export function parseWalletBalanceList(value: unknown, path = 'balances'): WalletBalance[] {
  return mapArray(value, path, (v, p) => parseWalletBalance(v, p));
}

/** Wire form of a wallet balance. */
export function walletBalanceToWire(b: WalletBalance): Record<string, unknown> {
  return wireRecord({ ...b });
}
