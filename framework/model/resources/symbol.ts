import type { Decimal } from '../decimal.js';
import { ParseError } from '../errors.js';
import {
  asObject, mapKeyed, nullableString, nullableTime, optBool, optDecimal, optEnum, optString, reqDecimal, reqEnum,
  reqString, reqInt,
} from '../wire.js';
import { msToIso, wireRecord } from './wire-values.js';

/** Symbol type. */
export const SYMBOL_TYPES = ['spot', 'futures'] as const;
export type SymbolType = (typeof SYMBOL_TYPES)[number];
/** Futures contract type. */
export const CONTRACT_TYPES = ['perpetual', 'cash_settled'] as const;
export type ContractType = (typeof CONTRACT_TYPES)[number];
/** Symbol trading status. */
export const SYMBOL_STATUSES = ['working', 'suspended', 'clearing'] as const;
export type SymbolStatus = (typeof SYMBOL_STATUSES)[number];

/** API v3 Symbol (`GET /api/3/public/symbol`), document 000. */
export interface SymbolInfo {
  readonly type: SymbolType;
  readonly contract_type?: ContractType;
  /** Futures expiry in UNIX ms; null for perpetual and spot. */
  readonly expiry: number | null;
  readonly underlying?: string;
  /** Null for futures. */
  readonly base_currency: string | null;
  readonly quote_currency: string;
  readonly status: SymbolStatus;
  readonly quantity_increment: Decimal;
  readonly tick_size: Decimal;
  readonly take_rate: Decimal;
  /** May be negative (a rebate). */
  readonly make_rate: Decimal;
  readonly fee_currency: string;
  readonly margin_trading: boolean;
  readonly max_initial_leverage?: Decimal;
}

/**
 * Parses a Symbol. `status` and `margin_trading` default to `working` and `false` when absent,
 * because recording headers carry only the trading-relevant subset of the shape.
 */
export function parseSymbolInfo(value: unknown, path = 'symbol'): SymbolInfo {
  const o = asObject(value, path);
  return {
    type: reqEnum(o, 'type', SYMBOL_TYPES, path),
    contract_type: optEnum(o, 'contract_type', CONTRACT_TYPES, path),
    expiry: nullableTime(o, 'expiry', path),
    underlying: optString(o, 'underlying', path),
    base_currency: nullableString(o, 'base_currency', path),
    quote_currency: reqString(o, 'quote_currency', path),
    status: optEnum(o, 'status', SYMBOL_STATUSES, path) ?? 'working',
    quantity_increment: positive(reqDecimal(o, 'quantity_increment', path), `${path}.quantity_increment`),
    tick_size: positive(reqDecimal(o, 'tick_size', path), `${path}.tick_size`),
    take_rate: reqDecimal(o, 'take_rate', path),
    make_rate: reqDecimal(o, 'make_rate', path),
    fee_currency: reqString(o, 'fee_currency', path),
    margin_trading: optBool(o, 'margin_trading', path) ?? false,
    max_initial_leverage: optDecimal(o, 'max_initial_leverage', path),
  };
}

/** Parses the keyed list response of `GET /api/3/public/symbol`. */
export function parseSymbolMap(value: unknown, path = 'symbols'): Record<string, SymbolInfo> {
  return mapKeyed(value, path, (v, p) => parseSymbolInfo(v, p));
}

/** Wire form of a Symbol, as the exchange sends it (decimals as text, expiry ISO 8601 or null). */
export function symbolInfoToWire(info: SymbolInfo): Record<string, unknown> {
  return wireRecord({ ...info, expiry: info.expiry === null ? null : msToIso(info.expiry) });
}

/** API v3 Symbol mapping (`GET /api/3/public/mapping/symbol`). */
export interface SymbolMapping {
  readonly core_symbol_id: number;
  readonly core_symbol: string;
  readonly core_base_currency: string;
  readonly core_quote_currency: string;
  readonly core_fee_currency: string;
  readonly quantity_increment: Decimal;
  readonly tick_size: Decimal;
}

/** Parses a Symbol mapping. */
export function parseSymbolMapping(value: unknown, path = 'mapping'): SymbolMapping {
  const o = asObject(value, path);
  return {
    core_symbol_id: reqInt(o, 'core_symbol_id', path),
    core_symbol: reqString(o, 'core_symbol', path),
    core_base_currency: reqString(o, 'core_base_currency', path),
    core_quote_currency: reqString(o, 'core_quote_currency', path),
    core_fee_currency: reqString(o, 'core_fee_currency', path),
    quantity_increment: reqDecimal(o, 'quantity_increment', path),
    tick_size: reqDecimal(o, 'tick_size', path),
  };
}

function positive(d: Decimal, path: string): Decimal {
  if (!d.isPositive() || d.isZero()) throw new ParseError(path, 'must be greater than zero', d.toString());
  return d;
}
