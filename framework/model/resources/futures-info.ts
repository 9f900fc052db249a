import type { DecimalString } from '../decimal.js';
import {
  asObject, childPath, decimalStringAt, mapArray, mapKeyed, optDecimalString, optTime, reqDecimalString, reqEnum, reqTime,
} from '../wire.js';
import { CONTRACT_TYPES, type ContractType } from './symbol.js';

/** API v3 Futures info (`GET /api/3/public/futures/info`), keyed by contract code. */
export interface FuturesInfo {
  readonly contract_type: ContractType;
  readonly mark_price: DecimalString;
  readonly index_price: DecimalString;
  /** Perpetual only. */
  readonly funding_rate?: DecimalString;
  readonly open_interest: DecimalString;
  /** Perpetual only. */
  readonly next_funding_time?: number;
  readonly indicative_funding_rate?: DecimalString;
  readonly premium_index?: DecimalString;
  readonly avg_premium_index?: DecimalString;
  readonly interest_rate?: DecimalString;
  /** Cash-settled only. */
  readonly indicative_settlement_price?: DecimalString;
  /** Cash-settled only. */
  readonly expiry?: number;
  /** Request time. */
  readonly timestamp: number;
}

/** Parses a futures info. */
export function parseFuturesInfo(value: unknown, path = 'futures_info'): FuturesInfo {
  const o = asObject(value, path);
  return {
    contract_type: reqEnum(o, 'contract_type', CONTRACT_TYPES, path),
    mark_price: reqDecimalString(o, 'mark_price', path),
    index_price: reqDecimalString(o, 'index_price', path),
    funding_rate: optDecimalString(o, 'funding_rate', path),
    open_interest: reqDecimalString(o, 'open_interest', path),
    next_funding_time: optTime(o, 'next_funding_time', path),
    indicative_funding_rate: optDecimalString(o, 'indicative_funding_rate', path),
    premium_index: optDecimalString(o, 'premium_index', path),
    avg_premium_index: optDecimalString(o, 'avg_premium_index', path),
    interest_rate: optDecimalString(o, 'interest_rate', path),
    indicative_settlement_price: optDecimalString(o, 'indicative_settlement_price', path),
    expiry: optTime(o, 'expiry', path),
    timestamp: reqTime(o, 'timestamp', path),
  };
}

/** Parses the contract-keyed response of `GET /api/3/public/futures/info[/{symbol}]`. */
export function parseFuturesInfoMap(value: unknown, path = 'futures_info'): Record<string, FuturesInfo> {
  return mapKeyed(value, path, (v, p) => parseFuturesInfo(v, p));
}

/** Funding history record of a perpetual contract. */
export interface FundingRecord {
  readonly timestamp: number;
  readonly funding_rate: DecimalString;
  readonly avg_premium_index: DecimalString;
  readonly interest_rate: DecimalString;
  readonly next_funding_time: number;
}

/** Parses a funding history record. */
export function parseFundingRecord(value: unknown, path = 'funding'): FundingRecord {
  const o = asObject(value, path);
  return {
    timestamp: reqTime(o, 'timestamp', path),
    funding_rate: reqDecimalString(o, 'funding_rate', path),
    avg_premium_index: reqDecimalString(o, 'avg_premium_index', path),
    interest_rate: reqDecimalString(o, 'interest_rate', path),
    next_funding_time: reqTime(o, 'next_funding_time', path),
  };
}

/** Parses the contract-keyed arrays of `GET /api/3/public/futures/history/funding`. */
export function parseFundingHistoryMap(value: unknown, path = 'funding_history'): Record<string, FundingRecord[]> {
  return mapKeyed(value, path, (v, p) => mapArray(v, p, parseFundingRecord));
}

/**
 * Open interest candle. The spec does not show its fields, so the record keeps `timestamp` when
 * present and every other field as validated decimal text under its own name.
 */
export interface OpenInterestCandle {
  readonly timestamp?: number;
  readonly values: Readonly<Record<string, DecimalString>>;
}

/** Parses an open interest candle; a non-decimal field other than `timestamp` is a ParseError. */
export function parseOpenInterestCandle(value: unknown, path = 'open_interest'): OpenInterestCandle {
  const o = asObject(value, path);
  const values: Record<string, DecimalString> = {};
  for (const key of Object.keys(o)) {
    if (key === 'timestamp' || o[key] == null) continue;
    values[key] = decimalStringAt(o[key], childPath(path, key));
  }
  return { timestamp: optTime(o, 'timestamp', path), values };
}
