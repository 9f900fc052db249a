import type { Decimal } from '../decimal.js';
import {
  asObject, mapArray, optDecimal, reqArray, reqDecimal, reqId, reqString, reqTime,
} from '../wire.js';

/** Funds of one currency on an isolated margin or futures account. */
export interface AccountCurrency {
  readonly code: string;
  /** Total on the margin account. */
  readonly margin_balance: Decimal;
  /** Reserved for open orders; not withdrawable. */
  readonly reserved_orders: Decimal;
  /** Reserved for open positions; not withdrawable. */
  readonly reserved_positions: Decimal;
}

/** An open margin or futures position. */
export interface Position {
  readonly id: string;
  readonly symbol: string;
  /** Negative for a short. */
  readonly quantity: Decimal;
  /** Weighted average price of the opening orders. */
  readonly price_entry: Decimal;
  /** Mark price of the margin call. */
  readonly price_margin_call?: Decimal;
  /** Mark price of the forced close. */
  readonly price_liquidation?: Decimal;
  /** Unrealized profit and loss. */
  readonly pnl?: Decimal;
  readonly created_at: number;
  readonly updated_at: number;
}

/** API v3 isolated margin or futures account (`GET /api/3/{margin|futures}/account`). */
export interface MarginAccount {
  readonly symbol: string;
  /** `isolated` is the only documented value; kept as text for forward compatibility. */
  readonly type: string;
  readonly leverage: Decimal;
  readonly created_at: number;
  readonly updated_at: number;
  readonly currencies: readonly AccountCurrency[];
  /** Null when the account has no open position. */
  readonly positions: readonly Position[] | null;
}

function parseAccountCurrency(value: unknown, path: string): AccountCurrency {
  const o = asObject(value, path);
  return {
    code: reqString(o, 'code', path),
    margin_balance: reqDecimal(o, 'margin_balance', path),
    reserved_orders: reqDecimal(o, 'reserved_orders', path),
    reserved_positions: reqDecimal(o, 'reserved_positions', path),
  };
}

/** Parses a position. */
export function parsePosition(value: unknown, path = 'position'): Position {
  const o = asObject(value, path);
  return {
    id: reqId(o, 'id', path),
    symbol: reqString(o, 'symbol', path),
    quantity: reqDecimal(o, 'quantity', path),
    price_entry: reqDecimal(o, 'price_entry', path),
    price_margin_call: optDecimal(o, 'price_margin_call', path),
    price_liquidation: optDecimal(o, 'price_liquidation', path),
    pnl: optDecimal(o, 'pnl', path),
    created_at: reqTime(o, 'created_at', path),
    updated_at: reqTime(o, 'updated_at', path),
  };
}

/** Parses an array of positions (the close-position endpoints). */
export function parsePositionList(value: unknown, path = 'positions'): Position[] {
  return mapArray(value, path, (v, p) => parsePosition(v, p));
}

/** Parses a margin or futures account. */
export function parseMarginAccount(value: unknown, path = 'account'): MarginAccount {
  const o = asObject(value, path);
  return {
    symbol: reqString(o, 'symbol', path),
    type: reqString(o, 'type', path),
    leverage: reqDecimal(o, 'leverage', path),
    created_at: reqTime(o, 'created_at', path),
    updated_at: reqTime(o, 'updated_at', path),
    currencies: reqArray(o, 'currencies', path, parseAccountCurrency),
    positions: o['positions'] == null ? null : parsePositionList(o['positions'], `${path}.positions`),
  };
}

/** Parses the array response of `GET /api/3/{margin|futures}/account`. */
export function parseMarginAccountList(value: unknown, path = 'accounts'): MarginAccount[] {
  return mapArray(value, path, (v, p) => parseMarginAccount(v, p));
}
