import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Decimal, dec } from '../../framework/model/decimal.js';
import { ValidationError } from '../../framework/model/errors.js';
import type { Intent, PlaceIntent, ReplaceIntent } from '../../framework/model/intent.js';
import type { OrderStatus } from '../../framework/model/resources/order.js';
import marketMaker from '../../strategies/market-maker/market-maker.strategy.js';
import type { MarketMakerParams } from '../../strategies/market-maker/market-maker-params.js';
import { quotePrices } from '../../strategies/market-maker/quote-prices.js';
import { ETHUSDT, StrategyHarness, orderOf } from './strategy-harness.js';

const PARAMS = { halfSpreadBps: 10, orderQuantity: '0.1', maxInventory: '0.25', requoteBps: 2, minRequoteIntervalMs: 250 };
const harnesses: StrategyHarness<MarketMakerParams>[] = [];
afterEach(() => {
  for (const h of harnesses.splice(0)) h.stop();
});

function harness(params: Record<string, unknown> = PARAMS): StrategyHarness<MarketMakerParams> {
  const h = new StrategyHarness(marketMaker, params);
  harnesses.push(h);
  return h;
}

function summary(intents: readonly Intent[]): string[] {
  return intents.map((i) => {
    if (i.kind === 'place') return `place ${i.side} ${i.quantity.toFixed()} @ ${i.price?.toFixed()}`;
    if (i.kind === 'replace') return `replace ${i.clientOrderId} ${i.quantity.toFixed()} @ ${i.price?.toFixed()}`;
    if (i.kind === 'cancel') return `cancel ${i.clientOrderId}`;
    return i.kind;
  });
}

/** Quotes ETHUSDT at 3000.00/3000.10 and accepts both quotes (s-o1 the bid, s-o2 the ask). */
function quoted(h: StrategyHarness<MarketMakerParams>): { bid: PlaceIntent; ask: PlaceIntent } {
  h.book('ETHUSDT', '3000.00', '3000.10');
  const [bid, ask] = h.take() as PlaceIntent[];
  if (bid === undefined || ask === undefined) throw new Error('no quotes');
  h.accept(bid, [orderOf(bid, bid.clientOrderId!, 'new', h.now())]);
  h.accept(ask, [orderOf(ask, ask.clientOrderId!, 'new', h.now())]);
  return { bid, ask };
}

/** A fill of `quantity` of the order placed by `intent`. */
function fill(h: StrategyHarness<MarketMakerParams>, intent: PlaceIntent, quantity: string, status: OrderStatus = 'filled'): void {
  h.update(orderOf(intent, intent.clientOrderId!, status, h.now()), 'trade', intent.intentId, { quantity, price: intent.price!.toFixed() });
}

describe('market maker quoting', () => {
  it('places a post-only GTC bid and ask around the mid on the tick grid', () => {
    const h = harness();
    h.book('ETHUSDT', '3000.00', '3000.10');
    const intents = h.take();
    // mid 3000.05: bid floor(3000.05 * 0.999) = 2997.04, ask ceil(3000.05 * 1.001) = 3003.06
    expect(summary(intents)).toEqual(['place buy 0.1 @ 2997.04', 'place sell 0.1 @ 3003.06']);
    expect(intents[0]).toMatchObject({ symbol: 'ETHUSDT', type: 'limit', timeInForce: 'GTC', postOnly: true, tag: 'bid-quote' });
    // One intent in flight per side: another book change sends nothing until the answers come.
    h.book('ETHUSDT', '3010.00', '3010.10');
    expect(h.take()).toEqual([]);
  });

  it('moves quotes with replaces (never cancel + place) once the target moved by requoteBps and the interval passed', () => {
    const h = harness();
    quoted(h);
    h.advance(300);
    h.book('ETHUSDT', '3000.10', '3000.20'); // 0.33 bps: below requoteBps
    expect(h.take()).toEqual([]);
    h.book('ETHUSDT', '3010.00', '3010.10');
    const moved = h.take();
    expect(summary(moved)).toEqual(['replace s-o1 0.1 @ 3007.03', 'replace s-o2 0.1 @ 3013.07']);
    // The replacement's report names the new order; the next move replaces that one.
    const [bidMove, askMove] = moved as ReplaceIntent[];
    const newBid = orderOf({ symbol: 'ETHUSDT', side: 'buy', type: 'limit', quantity: bidMove!.quantity, price: bidMove!.price }, bidMove!.newClientOrderId!, 'new', h.now());
    h.update({ ...newBid, original_client_order_id: bidMove!.clientOrderId }, 'replaced', bidMove!.intentId);
    h.accept(bidMove!, [newBid]);
    h.accept(askMove!, [orderOf({ symbol: 'ETHUSDT', side: 'sell', type: 'limit', quantity: askMove!.quantity, price: askMove!.price }, askMove!.newClientOrderId!, 'new', h.now())]);
    h.advance(100);
    h.book('ETHUSDT', '3020.00', '3020.10');
    expect(h.take()).toEqual([]); // within minRequoteIntervalMs
    h.advance(200);
    h.book('ETHUSDT', '3020.00', '3020.10');
    expect(summary(h.take())).toEqual(['replace s-o3 0.1 @ 3017.02', 'replace s-o4 0.1 @ 3023.08']);
  });

  it('after a fill re-places the filled side at once and skews both quotes down when long', () => {
    const h = harness();
    const { bid } = quoted(h);
    h.advance(300);
    fill(h, bid, '0.1');
    // q = 0.1 of 0.25: center = 3000.05 * (1 - 10bps * 0.4) = 2998.84998
    expect(summary(h.take())).toEqual(['place buy 0.1 @ 2995.85', 'replace s-o2 0.1 @ 3001.85']);
    expect(h.engine.context.position('ETHUSDT')?.quantity.toFixed()).toBe('0.1');
  });

  it('does not quote the side that would take the position beyond maxInventory, and cancels it when live', () => {
    const h = harness({ ...PARAMS, maxInventory: '0.15' });
    const { bid, ask } = quoted(h);
    h.advance(300);
    // A partial fill: 0.06 + 0.1 > 0.15, so the live bid is cancelled (not replaced).
    fill(h, bid, '0.06', 'partiallyFilled');
    const after = h.take();
    expect(summary(after)).toContain('cancel s-o1');
    expect(after.some((i) => i.kind === 'place' && i.side === 'buy')).toBe(false);
    const cancel = after.find((i) => i.kind === 'cancel')!;
    h.accept(cancel, [orderOf(bid, bid.clientOrderId!, 'canceled', h.now())]);
    h.advance(300);
    h.book('ETHUSDT', '3000.00', '3000.10');
    expect(h.take().filter((i) => i.kind === 'place' && i.side === 'buy')).toEqual([]);
    // Selling the position back frees the bid side again.
    fill(h, ask, '0.06', 'partiallyFilled');
    h.advance(300);
    h.book('ETHUSDT', '3000.00', '3000.10');
    expect(summary(h.take())).toContain('place buy 0.1 @ 2997.04');
  });

  it('frees a side on rejection or denial and backs off one requote interval', () => {
    const h = harness();
    h.book('ETHUSDT', '3000.00', '3000.10');
    const [bid, ask] = h.take();
    h.reject(bid!);
    h.deny(ask!);
    expect(h.take()).toEqual([]);
    h.advance(100);
    h.book('ETHUSDT', '3000.00', '3000.10');
    expect(h.take()).toEqual([]);
    h.advance(200);
    h.book('ETHUSDT', '3000.00', '3000.10');
    expect(summary(h.take())).toEqual(['place buy 0.1 @ 2997.04', 'place sell 0.1 @ 3003.06']);
  });

  it('does not answer a refusal in the same turn, even with no requote interval: the next book moves the quote again', () => {
    const h = harness({ ...PARAMS, minRequoteIntervalMs: 0 });
    quoted(h);
    h.book('ETHUSDT', '3010.00', '3010.10');
    const [bidMove, askMove] = h.take() as ReplaceIntent[];
    h.deny(bidMove!);
    h.deny(askMove!);
    expect(h.take()).toEqual([]);
    h.book('ETHUSDT', '3010.00', '3010.10');
    expect(summary(h.take())).toEqual(['replace s-o1 0.1 @ 3007.03', 'replace s-o2 0.1 @ 3013.07']);
  });

  it('learns a quote from its own update when it overtakes the answer', () => {
    const h = harness();
    h.book('ETHUSDT', '3000.00', '3000.10');
    const [bid, ask] = h.take() as PlaceIntent[];
    h.update(orderOf(bid!, bid!.clientOrderId!, 'new', h.now()), 'new', bid!.intentId);
    h.accept(bid!, [orderOf(bid!, bid!.clientOrderId!, 'new', h.now())]);
    h.accept(ask!, [orderOf(ask!, ask!.clientOrderId!, 'new', h.now())]);
    h.advance(300);
    h.book('ETHUSDT', '3010.00', '3010.10');
    expect(summary(h.take())).toEqual(['replace s-o1 0.1 @ 3007.03', 'replace s-o2 0.1 @ 3013.07']);
  });

  it('frees a side whose quote was cancelled by the exchange and re-places it', () => {
    const h = harness();
    const { ask } = quoted(h);
    h.update(orderOf(ask, ask.clientOrderId!, 'canceled', h.now()), 'canceled', ask.intentId);
    expect(summary(h.take())).toEqual(['place sell 0.1 @ 3003.06']);
  });

  it('cancels all its orders on stop', () => {
    const h = harness();
    quoted(h);
    h.stop();
    expect(h.take()).toMatchObject([{ kind: 'cancelAll', tag: 'stop' }]);
  });
});

describe('market maker parameters', () => {
  it('fills defaults, skewBps from halfSpreadBps', () => {
    const p = marketMaker.parseParams({ orderQuantity: '0.1', maxInventory: 1, halfSpreadBps: '7.5' });
    expect(p.skewBps.toFixed()).toBe('7.5');
    expect(p.requoteBps.toFixed()).toBe('2');
    expect(p.minRequoteIntervalMs).toBe(250);
    expect(marketMaker.parseParams({ orderQuantity: '0.1', maxInventory: 1, skewBps: 3 }).skewBps.toFixed()).toBe('3');
  });

  it.each([
    [{ maxInventory: '1' }, 'orderQuantity'],
    [{ orderQuantity: '0', maxInventory: '1' }, 'orderQuantity'],
    [{ orderQuantity: '0.1', maxInventory: '1', halfSpreadBps: 'wide' }, 'halfSpreadBps'],
    [{ orderQuantity: '0.1', maxInventory: '1', skewBps: '-1' }, 'skewBps'],
    [{ orderQuantity: '0.1', maxInventory: '1', minRequoteIntervalMs: 1.5 }, 'minRequoteIntervalMs'],
  ])('rejects %j naming %s', (raw, field) => {
    expect(() => marketMaker.parseParams(raw)).toThrow(ValidationError);
    try {
      marketMaker.parseParams(raw);
    } catch (error) {
      expect((error as ValidationError).field).toBe(field);
    }
  });
});

describe('quotePrices', () => {
  it('bid < ask on the tick grid, bid <= skewed mid <= ask, for any mid and inventory', () => {
    const scaled = (min: number, max: number, scale: number) => fc.integer({ min, max }).map((n) => new Decimal(n).div(10 ** scale));
    fc.assert(fc.property(
      scaled(1, 10_000_000, 3), scaled(-500, 500, 2), scaled(1, 300, 2), scaled(0, 500, 1), scaled(0, 500, 1),
      (mid, inventory, maxInventory, halfSpreadBps, skewBps) => {
        const q = quotePrices(ETHUSDT, { mid, inventory, maxInventory, halfSpreadBps, skewBps });
        const ratio = Decimal.min(1, Decimal.max(-1, inventory.div(maxInventory)));
        const center = mid.times(dec(1).minus(skewBps.times(ratio).div(10_000)));
        expect(q.bid.lessThan(q.ask)).toBe(true);
        expect(q.bid.mod(ETHUSDT.tickSize).isZero() && q.ask.mod(ETHUSDT.tickSize).isZero()).toBe(true);
        expect(q.bid.lessThanOrEqualTo(center) && center.lessThanOrEqualTo(q.ask)).toBe(true);
        // Long inventory never quotes above the unskewed quotes, short never below.
        const flat = quotePrices(ETHUSDT, { mid, inventory: dec(0), maxInventory, halfSpreadBps, skewBps });
        if (inventory.isPositive()) expect(q.bid.lessThanOrEqualTo(flat.bid) && q.ask.lessThanOrEqualTo(flat.ask)).toBe(true);
        else expect(q.bid.greaterThanOrEqualTo(flat.bid) && q.ask.greaterThanOrEqualTo(flat.ask)).toBe(true);
      },
    ));
  });
});
