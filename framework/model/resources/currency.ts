import type { Decimal } from '../decimal.js';
import {
  asObject, mapKeyed, optDecimal, optString, reqArray, reqBool, reqDecimal, reqInt, reqString,
} from '../wire.js';

/** API v3 Network of a currency (document 000). */
export interface Network {
  readonly network: string;
  /** Token standard; may be an empty string. */
  readonly protocol?: string;
  readonly default: boolean;
  readonly payin_enabled: boolean;
  readonly payout_enabled: boolean;
  /** Payout step, e.g. `0.000001` (the exchange sends the step, not a digit count). */
  readonly precision_payout: Decimal;
  readonly payout_fee?: Decimal;
  readonly payout_is_payment_id: boolean;
  readonly payin_payment_id: boolean;
  readonly payin_confirmations: number;
  readonly address_regex?: string;
  readonly payment_id_regex?: string;
  /** Seconds. */
  readonly low_processing_time?: Decimal;
  readonly high_processing_time?: Decimal;
  readonly avg_processing_time?: Decimal;
}

/** API v3 Currency (`GET /api/3/public/currency`). */
export interface Currency {
  readonly full_name: string;
  readonly crypto: boolean;
  readonly payin_enabled: boolean;
  readonly payout_enabled: boolean;
  /** May be false during maintenance. */
  readonly transfer_enabled: boolean;
  /** Transfer step, e.g. `0.00000001`. */
  readonly precision_transfer: Decimal;
  readonly networks: readonly Network[];
}

/** Parses a Network. */
export function parseNetwork(value: unknown, path = 'network'): Network {
  const o = asObject(value, path);
  return {
    network: reqString(o, 'network', path),
    protocol: optString(o, 'protocol', path),
    default: reqBool(o, 'default', path),
    payin_enabled: reqBool(o, 'payin_enabled', path),
    payout_enabled: reqBool(o, 'payout_enabled', path),
    precision_payout: reqDecimal(o, 'precision_payout', path),
    payout_fee: optDecimal(o, 'payout_fee', path),
    payout_is_payment_id: reqBool(o, 'payout_is_payment_id', path),
    payin_payment_id: reqBool(o, 'payin_payment_id', path),
    payin_confirmations: reqInt(o, 'payin_confirmations', path),
    address_regex: optString(o, 'address_regex', path),
    payment_id_regex: optString(o, 'payment_id_regex', path),
    low_processing_time: optDecimal(o, 'low_processing_time', path),
    high_processing_time: optDecimal(o, 'high_processing_time', path),
    avg_processing_time: optDecimal(o, 'avg_processing_time', path),
  };
}

/** Parses a Currency. */
export function parseCurrency(value: unknown, path = 'currency'): Currency {
  const o = asObject(value, path);
  return {
    full_name: reqString(o, 'full_name', path),
    crypto: reqBool(o, 'crypto', path),
    payin_enabled: reqBool(o, 'payin_enabled', path),
    payout_enabled: reqBool(o, 'payout_enabled', path),
    transfer_enabled: reqBool(o, 'transfer_enabled', path),
    precision_transfer: reqDecimal(o, 'precision_transfer', path),
    networks: reqArray(o, 'networks', path, (v, p) => parseNetwork(v, p)),
  };
}

/** Parses the currency-keyed response of `GET /api/3/public/currency`. */
export function parseCurrencyMap(value: unknown, path = 'currencies'): Record<string, Currency> {
  return mapKeyed(value, path, (v, p) => parseCurrency(v, p));
}
