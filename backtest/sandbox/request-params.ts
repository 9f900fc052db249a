import { ErrorCode } from '../../framework/exchange/errors.js';
import { CONTINGENCY_TYPES, ORDER_TYPES, TIME_IN_FORCES } from '../../framework/model/resources/order.js';
import { VenueRejection, type NewOrderRequest, type OrderListRequest, type ReplaceOrderRequest, type TransferRequest } from '../venue/venue-types.js';

/** Request parameters after decoding (JSON values, or form/query strings). */
export type Params = Readonly<Record<string, unknown>>;

/**
 * Decodes a request body as the exchange accepts it: JSON (`application/json`) or form fields
 * (`application/x-www-form-urlencoded`, also the fallback for other types). An empty body is `{}`.
 */
export function decodeBody(raw: Buffer, contentType: string | undefined): Params {
  const text = raw.toString('utf8');
  if (text.trim() === '') return {};
  if ((contentType ?? '').toLowerCase().includes('json') || /^\s*[{[]/.test(text)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw invalid('body', 'is not valid JSON');
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid('body', 'must be a JSON object');
    return value as Params;
  }
  return Object.fromEntries(new URLSearchParams(text));
}

/** A 10001 Validation error naming the field and the rule. */
export function invalid(field: string, rule: string): VenueRejection {
  return new VenueRejection(ErrorCode.ValidationError, `${field} ${rule}`);
}

/** Required text (strings, or numbers sent for decimal fields). */
export function reqText(p: Params, field: string): string {
  const v = optText(p, field);
  if (v === undefined) throw invalid(field, 'is required');
  return v;
}

/** Optional text; numbers are taken as their decimal text. */
export function optText(p: Params, field: string): string | undefined {
  const v = p[field];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw invalid(field, 'must be a string');
}

/** Optional boolean: JSON booleans or the form texts `true`/`false`. */
export function optBool(p: Params, field: string): boolean | undefined {
  const v = p[field];
  if (v === undefined || v === null || v === '') return undefined;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw invalid(field, 'must be true or false');
}

/** Optional non-negative integer (query texts or JSON numbers), within `max`. */
export function optInt(p: Params, field: string, max: number): number | undefined {
  const v = p[field];
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 0 || n > max) throw invalid(field, `must be an integer in 0..${max}`);
  return n;
}

/** Optional DateTime: UNIX ms (number or digits) or ISO 8601 text; returns UNIX ms. */
export function optTime(p: Params, field: string): number | undefined {
  const v = p[field];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string') {
    if (/^\d+$/.test(v)) {
      const ms = Number(v);
      if (Number.isSafeInteger(ms)) return ms; // beyond 2^53 digits would be read rounded: refused below
    } else {
      const ms = Date.parse(v);
      if (!Number.isNaN(ms)) return ms;
    }
  }
  throw invalid(field, 'must be UNIX ms or an ISO 8601 DateTime');
}

function optOneOf<T extends string>(p: Params, field: string, values: readonly T[]): T | undefined {
  const v = optText(p, field);
  if (v === undefined) return undefined;
  if (!(values as readonly string[]).includes(v)) throw invalid(field, `must be one of ${values.join(', ')}`);
  return v as T;
}

/** `POST /spot/order` (and `spot_new_order`) parameters. */
export function newOrderRequest(p: Params, path = ''): NewOrderRequest {
  const at = (f: string) => `${path}${f}`;
  const field = <T>(name: string, read: (q: Params, f: string) => T): T => {
    try {
      return read(p, name);
    } catch (error) {
      if (error instanceof VenueRejection && path !== '') throw invalid(at(name), error.description.slice(name.length + 1));
      throw error;
    }
  };
  const side = field('side', (q, f) => reqText(q, f));
  if (side !== 'buy' && side !== 'sell') throw invalid(at('side'), 'must be buy or sell');
  return {
    client_order_id: field('client_order_id', optText),
    symbol: field('symbol', reqText),
    side,
    type: field('type', (q, f) => optOneOf(q, f, ORDER_TYPES)),
    time_in_force: field('time_in_force', (q, f) => optOneOf(q, f, TIME_IN_FORCES)),
    quantity: field('quantity', reqText),
    price: field('price', optText),
    stop_price: field('stop_price', optText),
    expire_time: field('expire_time', optTime),
    strict_validate: field('strict_validate', optBool),
    post_only: field('post_only', optBool),
    take_rate: field('take_rate', optText),
    make_rate: field('make_rate', optText),
    reduce_only: field('reduce_only', optBool),
  };
}

/** `PATCH /spot/order/{id}` (and `spot_replace_order`) parameters. */
export function replaceOrderRequest(clientOrderId: string, p: Params): ReplaceOrderRequest {
  return {
    client_order_id: clientOrderId,
    new_client_order_id: optText(p, 'new_client_order_id'),
    quantity: reqText(p, 'quantity'),
    price: optText(p, 'price'),
    strict_validate: optBool(p, 'strict_validate'),
  };
}

/** `POST /spot/order/list` (and `spot_new_order_list`) parameters. */
export function orderListRequest(p: Params): OrderListRequest {
  const contingency = optOneOf(p, 'contingency_type', CONTINGENCY_TYPES);
  if (contingency === undefined) throw invalid('contingency_type', 'is required');
  let orders = p['orders'];
  if (typeof orders === 'string') {
    try {
      orders = JSON.parse(orders);
    } catch {
      throw invalid('orders', 'must be an array of orders');
    }
  }
  if (!Array.isArray(orders)) throw invalid('orders', 'must be an array of orders');
  return {
    order_list_id: optText(p, 'order_list_id'),
    contingency_type: contingency,
    orders: orders.map((o: unknown, i) => {
      if (o === null || typeof o !== 'object') throw invalid(`orders[${i}]`, 'must be an object');
      return newOrderRequest(o as Params, `orders[${i}].`);
    }),
  };
}

/** `POST /wallet/transfer` parameters. */
export function transferRequest(p: Params): TransferRequest {
  const account = (field: string): 'wallet' | 'spot' => {
    const v = reqText(p, field);
    if (v !== 'wallet' && v !== 'spot') throw invalid(field, 'must be wallet or spot');
    return v;
  };
  const source = account('source');
  const destination = account('destination');
  if (source === destination) throw invalid('destination', 'must differ from source');
  return { currency: reqText(p, 'currency'), amount: reqText(p, 'amount'), source, destination };
}
