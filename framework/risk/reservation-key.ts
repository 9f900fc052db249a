/**
 * What one reservation of the ledger holds funds for, as a typed value (its `id` is the ledger's
 * map key, built once):
 * - `intent`: the one order of a place, replace or closePosition intent;
 * - `leg`: one leg of an order list whose legs each hold their own funds (allOrNone, and the
 *   primary of a oneTriggerOneCancelOther list);
 * - `group`: funds shared by legs of which only one can execute: the legs of a oneCancelOther
 *   list (`oneCancelOther`, one reservation per currency they need), the exits of a
 *   oneTriggerOneCancelOther list (`exits`);
 * - `adopted`: an order no intent of this bot made (found on the exchange at reconciliation).
 */
export type ReservationKey =
  | { readonly kind: 'intent'; readonly id: string; readonly intentId: string }
  | { readonly kind: 'leg'; readonly id: string; readonly intentId: string; readonly leg: number }
  | { readonly kind: 'group'; readonly id: string; readonly intentId: string; readonly group: ReservationGroup; readonly currency?: string }
  | { readonly kind: 'adopted'; readonly id: string; readonly clientOrderId: string };

/** Legs sharing one reservation. */
export type ReservationGroup = 'oneCancelOther' | 'exits';

/** The reservation of an intent's single order. */
export function intentKey(intentId: string): ReservationKey {
  return { kind: 'intent', id: intentId, intentId };
}

/** The reservation of one leg of an order list. */
export function legKey(intentId: string, leg: number): ReservationKey {
  return { kind: 'leg', id: `${intentId}#${leg}`, intentId, leg };
}

/**
 * The reservation shared by a group of legs; `currency` tells a second one apart when the group
 * needs two currencies (a oneCancelOther list with a buy and a sell leg).
 */
export function groupKey(intentId: string, group: ReservationGroup, currency?: string): ReservationKey {
  const base = `${intentId}#${group === 'oneCancelOther' ? 'oco' : 'secondaries'}`;
  return currency === undefined
    ? { kind: 'group', id: base, intentId, group }
    : { kind: 'group', id: `${base}-${currency}`, intentId, group, currency };
}

/** The reservation of an order found on the exchange that no intent of this bot made. */
export function adoptedKey(clientOrderId: string): ReservationKey {
  return { kind: 'adopted', id: `adopted:${clientOrderId}`, clientOrderId };
}

/** The intent a reservation belongs to; undefined for adopted orders. */
export function intentOf(key: ReservationKey): string | undefined {
  return key.kind === 'adopted' ? undefined : key.intentId;
}
