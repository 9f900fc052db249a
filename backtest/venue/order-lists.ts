import { CONTINGENCY_TYPES, type ContingencyType, type OrderType, type TimeInForce } from '../../framework/model/resources/order.js';
import { invalid } from './order-validation.js';
import type { NewOrderRequest, OrderListRequest } from './venue-types.js';

/** Allowed list sizes (document 001, Limits). */
export const LIST_SIZES: Readonly<Record<ContingencyType, readonly [min: number, max: number]>> = {
  allOrNone: [2, 3],
  oneCancelOther: [2, 3],
  oneTriggerOneCancelOther: [3, 4],
};

const ALL_OR_NONE_TYPES: readonly OrderType[] = ['limit', 'market'];
const OCO_TYPES: readonly OrderType[] = ['limit', 'stopLimit', 'stopMarket', 'takeProfitLimit', 'takeProfitMarket'];
const OCO_TIFS: readonly TimeInForce[] = ['GTC', 'IOC', 'FOK', 'Day', 'GTD'];

/**
 * Checks an order list against document 001's per-type table; every refusal is 10001 with a
 * description naming the rule. Returns the list id and the orders with the first order's
 * client_order_id settled: `order_list_id` must equal it; when one of the two is given it fills in
 * the other; when neither is, `generateId` provides both.
 */
export function validateOrderList(request: OrderListRequest, generateId: () => string): { listId: string; orders: NewOrderRequest[] } {
  const type = request.contingency_type;
  if (!CONTINGENCY_TYPES.includes(type)) throw invalid(`contingency_type must be one of ${CONTINGENCY_TYPES.join(', ')}`);
  if (!Array.isArray(request.orders)) throw invalid('orders must be an array');
  const [min, max] = LIST_SIZES[type];
  const count = request.orders.length;
  if (count < min || count > max) throw invalid(`${type} takes ${min} to ${max} orders, got ${count}`);
  const orders = [...request.orders];
  const first = orders[0] as NewOrderRequest;
  let listId = request.order_list_id;
  if (listId !== undefined && first.client_order_id !== undefined && listId !== first.client_order_id) {
    throw invalid('order_list_id must equal the client_order_id of the first order');
  }
  listId ??= first.client_order_id ?? generateId();
  orders[0] = { ...first, client_order_id: listId };
  const ids = new Set<string>();
  for (const [i, o] of orders.entries()) {
    if (o.client_order_id === undefined) continue;
    if (ids.has(o.client_order_id)) throw invalid(`orders[${i}].client_order_id must differ from the other orders of the list`);
    ids.add(o.client_order_id);
  }
  if (type === 'allOrNone') checkAllOrNone(orders);
  else if (type === 'oneCancelOther') orders.forEach((o, i) => checkOcoLeg(o, i, type));
  else checkOtoco(orders);
  return { listId, orders };
}

function checkAllOrNone(orders: readonly NewOrderRequest[]): void {
  const symbols = new Set<string>();
  for (const [i, o] of orders.entries()) {
    if (symbols.has(o.symbol)) throw invalid(`allOrNone: orders[${i}].symbol must be unique in the list`);
    symbols.add(o.symbol);
    const t = o.type ?? 'limit';
    if (!ALL_OR_NONE_TYPES.includes(t)) throw invalid(`allOrNone: orders[${i}].type must be limit or market`);
    if (o.time_in_force !== 'FOK') throw invalid(`allOrNone: orders[${i}].time_in_force must be FOK`);
  }
}

function checkOcoLeg(o: NewOrderRequest, i: number, list: ContingencyType): void {
  const t = o.type ?? 'limit';
  const tif = o.time_in_force ?? 'GTC';
  if (!OCO_TYPES.includes(t)) throw invalid(`${list}: orders[${i}].type must be one of ${OCO_TYPES.join(', ')}`);
  if (!OCO_TIFS.includes(tif)) throw invalid(`${list}: orders[${i}].time_in_force must be one of ${OCO_TIFS.join(', ')}`);
  if (t === 'limit' && (tif === 'IOC' || tif === 'FOK')) throw invalid(`${list}: orders[${i}] of type limit cannot be ${tif}`);
}

function checkOtoco(orders: readonly NewOrderRequest[]): void {
  const symbol = orders[0]?.symbol;
  for (const [i, o] of orders.entries()) {
    if (o.symbol !== symbol) throw invalid(`oneTriggerOneCancelOther: orders[${i}].symbol must equal the first order's symbol`);
    if (i > 0) checkOcoLeg(o, i, 'oneTriggerOneCancelOther');
  }
}

/** Role of an order inside its list, which decides what its executions do to the others. */
export type ListRole = 'allOrNone' | 'ocoLeg' | 'primary' | 'secondary';

/** State of one placed order list. */
export interface ListState {
  readonly listId: string;
  readonly account: string;
  readonly contingencyType: ContingencyType;
  /** Order keys in list order (first is the primary of a oneTriggerOneCancelOther). */
  readonly orderKeys: readonly number[];
}

/** Role of the `index`-th order of a list. */
export function listRole(type: ContingencyType, index: number): ListRole {
  if (type === 'allOrNone') return 'allOrNone';
  if (type === 'oneCancelOther') return 'ocoLeg';
  return index === 0 ? 'primary' : 'secondary';
}
