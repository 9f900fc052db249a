import type { Decimal } from '../decimal.js';
import { asObject, optDecimal, reqArray, reqBool, reqDecimal, reqString } from '../wire.js';

/** API v3 futures position configuration (`GET /api/3/futures/config`). */
export interface FuturesPositionConfig {
  readonly symbol: string;
  /** Multiplier on the requested leverage for the margin-call price. */
  readonly margin_call_leverage_mul: Decimal;
  /** Multiplier on the requested leverage for the liquidation price. */
  readonly liquidation_leverage_mul: Decimal;
  readonly max_initial_leverage: Decimal;
  readonly margin_mode: string;
  readonly force_close_fee: Decimal;
  /** Margin trading available. */
  readonly enabled: boolean;
  /** Positions complying with these parameters exist (including not yet opened). */
  readonly active: boolean;
  /** Risk limit: `limit_base / L ^ limit_power`; only when a risk limit exists. */
  readonly limit_base?: Decimal;
  readonly limit_power?: Decimal;
  /** Leverage below which no risk limit applies. */
  readonly unlimited_threshold?: Decimal;
}

/** Parses a futures position configuration. */
export function parseFuturesPositionConfig(value: unknown, path = 'config'): FuturesPositionConfig {
  const o = asObject(value, path);
  return {
    symbol: reqString(o, 'symbol', path),
    margin_call_leverage_mul: reqDecimal(o, 'margin_call_leverage_mul', path),
    liquidation_leverage_mul: reqDecimal(o, 'liquidation_leverage_mul', path),
    max_initial_leverage: reqDecimal(o, 'max_initial_leverage', path),
    margin_mode: reqString(o, 'margin_mode', path),
    force_close_fee: reqDecimal(o, 'force_close_fee', path),
    enabled: reqBool(o, 'enabled', path),
    active: reqBool(o, 'active', path),
    limit_base: optDecimal(o, 'limit_base', path),
    limit_power: optDecimal(o, 'limit_power', path),
    unlimited_threshold: optDecimal(o, 'unlimited_threshold', path),
  };
}

/** Parses the `{config: [...]}` response of `GET /api/3/futures/config`. */
export function parseFuturesConfigResponse(value: unknown, path = 'response'): FuturesPositionConfig[] {
  const o = asObject(value, path);
  return reqArray(o, 'config', path, (v, p) => parseFuturesPositionConfig(v, p));
}
