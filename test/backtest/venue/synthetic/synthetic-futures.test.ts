import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../../framework/model/decimal.js';
import { ValidationError } from '../../../../framework/model/errors.js';
import { parseFuturesInfoMap } from '../../../../framework/model/resources/futures-info.js';
import type { RecordedFrame } from '../../../../backtest/recording/recording-format.js';
import { SyntheticMarket } from '../../../../backtest/venue/synthetic/synthetic-market.js';
import type { SyntheticFuturesOptions } from '../../../../backtest/venue/synthetic/synthetic-futures.js';

const START = 1_704_067_200_000;
const EXPIRY = START + 45_000;
const PERP: SyntheticFuturesOptions = { symbol: 'BTCUSDT_PERP', underlying: 'BTCUSDT', basisTicks: 250, infoEveryMs: 5_000, fundingIntervalMs: 20_000, fundingRate: '0.0003' };
const DATED: SyntheticFuturesOptions = { symbol: 'BTCUSDT_Q', underlying: 'BTCUSDT', contractType: 'cash_settled', expiry: EXPIRY, basisTicks: -100, infoEveryMs: 10_000, openInterest: '5' };

interface Msg { ch?: string; snapshot?: Record<string, unknown>; update?: Record<string, unknown>; body?: Record<string, Record<string, string>> }

const symbolOf = (f: RecordedFrame): string => Object.keys((f.msg as Msg).snapshot ?? (f.msg as Msg).update ?? (f.msg as Msg).body ?? {})[0] ?? '';
const framesOf = (market: SyntheticMarket, durationMs = 60_000): RecordedFrame[] => [...market.frames({ start: START, durationMs })];

/** An independent book: price text -> quantity, per side; best prices as Decimals. */
class TextBook {
  readonly sides = { a: new Map<string, string>(), b: new Map<string, string>() };
  apply(entry: { a: [string, string][]; b: [string, string][] }, snapshot: boolean): void {
    for (const key of ['a', 'b'] as const) {
      if (snapshot) this.sides[key].clear();
      for (const [p, q] of entry[key]) {
        if (q === '0') this.sides[key].delete(p);
        else this.sides[key].set(p, q);
      }
    }
  }
  mid(): Decimal {
    const bid = Decimal.max(...[...this.sides.b.keys()].map((p) => new Decimal(p)));
    const ask = Decimal.min(...[...this.sides.a.keys()].map((p) => new Decimal(p)));
    return bid.plus(ask).dividedBy(2);
  }
}

describe('SyntheticMarket futures contracts', () => {
  const market = new SyntheticMarket({ seed: 11, symbols: ['BTCUSDT', 'ETHUSDT'], futures: [PERP, DATED] });
  const frames = framesOf(market);

  it('leaves the spot symbols\' frames exactly as a market without contracts gives them', () => {
    const plain = framesOf(new SyntheticMarket({ seed: 11, symbols: ['BTCUSDT', 'ETHUSDT'] }));
    expect(frames.filter((f) => ['BTCUSDT', 'ETHUSDT'].includes(symbolOf(f)))).toEqual(plain);
  });

  it('gives each contract its underlying\'s messages right after them, prices moved by the basis, the dated one until expiry', () => {
    for (const [options, tick] of [[PERP, '0.01'], [DATED, '0.01']] as const) {
      const basis = new Decimal(tick).times(options.basisTicks ?? 0);
      const copies = frames.filter((f) => symbolOf(f) === options.symbol && f.src === 'ws/public');
      const originals = frames.filter((f, i) => symbolOf(f) === 'BTCUSDT'
        && (options.expiry === undefined || Math.floor(f.t) < options.expiry) && frames.slice(i + 1, i + 3).some((g) => symbolOf(g) === options.symbol));
      expect(copies.length).toBe(originals.length);
      expect(copies.length).toBeGreaterThan(100);
      copies.forEach((copy, n) => {
        const original = originals[n]!;
        expect(copy.t).toBe(original.t);
        const a = original.msg as Msg;
        const b = copy.msg as Msg;
        expect(b.ch).toBe(a.ch);
        const key = a.snapshot !== undefined ? 'snapshot' : 'update';
        const from = JSON.parse(JSON.stringify(a[key]!.BTCUSDT)) as Record<string, unknown> | Record<string, unknown>[];
        const to = b[key]![options.symbol] as typeof from;
        const move = (p: string) => new Decimal(p).plus(basis).toFixed(2);
        if (a.ch === 'orderbook/full') {
          const entry = from as { a: [string, string][]; b: [string, string][] };
          expect(to).toEqual({ ...entry, a: entry.a.map(([p, q]) => [move(p), q]), b: entry.b.map(([p, q]) => [move(p), q]) });
        } else if (a.ch === 'trades') {
          expect(to).toEqual((from as { p: string }[]).map((t) => ({ ...t, p: move(t.p) })));
        } else {
          const candles = from as { o: string; c: string; h: string; l: string; v: string; q: string }[];
          expect(to).toEqual(candles.map((c) => ({ ...c, o: move(c.o), c: move(c.c), h: move(c.h), l: move(c.l), q: new Decimal(c.q).plus(new Decimal(c.v).times(basis)).toFixed() })));
        }
      });
    }
    expect(frames.filter((f) => symbolOf(f) === 'BTCUSDT_Q').every((f) => f.t < EXPIRY + 1)).toBe(true);
  });

  it('polls futures info on its grid: mark = contract mid, index = spot mid, funding on its grid, open interest following the trades', () => {
    const books = { BTCUSDT: new TextBook(), BTCUSDT_PERP: new TextBook(), BTCUSDT_Q: new TextBook() };
    const interest = { BTCUSDT_PERP: new Decimal(100), BTCUSDT_Q: new Decimal(5) };
    const seen: Record<string, number[]> = { BTCUSDT_PERP: [], BTCUSDT_Q: [] };
    for (const f of frames) {
      const msg = f.msg as Msg;
      const symbol = symbolOf(f) as keyof typeof books;
      if (f.src === 'ws/public' && msg.ch === 'orderbook/full' && books[symbol] !== undefined) {
        books[symbol].apply((msg.snapshot ?? msg.update)![symbol] as { a: [string, string][]; b: [string, string][] }, msg.snapshot !== undefined);
      }
      if (f.src === 'ws/public' && msg.ch === 'trades' && symbol in interest) {
        for (const t of msg.update![symbol] as { q: string; s: string }[]) {
          const key = symbol as keyof typeof interest;
          interest[key] = Decimal.max(0, t.s === 'buy' ? interest[key].plus(t.q) : interest[key].minus(t.q));
        }
      }
      if (f.src !== 'rest') continue;
      const info = parseFuturesInfoMap(msg.body)[symbol]!;
      const ms = Math.floor(f.t);
      seen[symbol]!.push(info.timestamp);
      expect(info.mark_price).toBe(books[symbol].mid().toFixed());
      expect(info.index_price).toBe(books.BTCUSDT.mid().toFixed());
      expect(info.open_interest).toBe(interest[symbol as keyof typeof interest].toFixed());
      if (symbol === 'BTCUSDT_PERP') {
        expect([info.contract_type, info.funding_rate, info.next_funding_time]).toEqual(['perpetual', '0.0003', (Math.floor(ms / 20_000) + 1) * 20_000]);
      } else {
        expect([info.contract_type, info.indicative_settlement_price, info.expiry, info.funding_rate]).toEqual(['cash_settled', info.index_price, EXPIRY, undefined]);
      }
    }
    // Every 5 s from the start to the end of the minute, both included.
    expect(seen.BTCUSDT_PERP).toEqual(Array.from({ length: 13 }, (_, i) => START + i * 5_000));
    // Every 10 s until the expiry at +45 s: none at or after it.
    expect(seen.BTCUSDT_Q).toEqual([0, 1, 2, 3, 4].map((i) => START + i * 10_000));
  });

  it('describes the contracts in the header as API v3 futures symbols', () => {
    expect(market.symbolInfos().BTCUSDT_PERP).toMatchObject({ type: 'futures', contract_type: 'perpetual', expiry: null, base_currency: null, quote_currency: 'USDT', fee_currency: 'USDT', underlying: 'BTC' });
    expect(market.symbolInfos().BTCUSDT_Q).toMatchObject({ type: 'futures', contract_type: 'cash_settled', expiry: EXPIRY });
  });

  it('refuses contracts it cannot build, naming the field', () => {
    const build = (f: SyntheticFuturesOptions) => () => new SyntheticMarket({ seed: 1, symbols: ['BTCUSDT'], futures: [f] });
    const field = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        if (e instanceof ValidationError) return e.field;
        throw e;
      }
      return undefined;
    };
    expect(field(build({ symbol: 'X_PERP', underlying: 'ETHUSDT' }))).toBe('futures[0].underlying');
    expect(field(build({ symbol: 'btc', underlying: 'BTCUSDT' }))).toBe('futures[0].symbol');
    expect(field(build({ symbol: 'BTCUSDT', underlying: 'BTCUSDT' }))).toBe('futures[0].symbol');
    expect(field(build({ symbol: 'B_Q', underlying: 'BTCUSDT', contractType: 'cash_settled' }))).toBe('futures[0].expiry');
    expect(field(build({ symbol: 'B_P', underlying: 'BTCUSDT', expiry: EXPIRY }))).toBe('futures[0].expiry');
    expect(field(build({ symbol: 'B_P', underlying: 'BTCUSDT', basisTicks: 0.5 }))).toBe('futures[0].basisTicks');
    expect(field(build({ symbol: 'B_P', underlying: 'BTCUSDT', fundingRate: 'x' }))).toBe('futures[0].fundingRate');
  });
});
