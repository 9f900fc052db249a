import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SyntheticMarket } from '../../../../backtest/venue/synthetic/synthetic-market.js';
import type { RecordedFrame, RecordingHeader } from '../../../../backtest/recording/recording-format.js';
import { OrderBookKeeper } from '../../../../framework/exchange/book/order-book-keeper.js';
import { ValidationError } from '../../../../framework/model/errors.js';
import { Instrument } from '../../../../framework/model/instrument.js';

const START = 1_704_067_200_000;

interface TradeEntry { t: number; i: number; p: string; q: string; s: 'buy' | 'sell' }
interface CandleEntry { t: number; o: string; c: string; h: string; l: string; v: string; q: string }
interface BookEntry { t: number; s: number; a: [string, string][]; b: [string, string][] }
interface Message { ch: string; snapshot?: Record<string, BookEntry>; update?: Record<string, unknown> }

interface MarketCheck {
  readonly trades: number;
  readonly bookMessages: number;
  readonly candles: number;
  readonly problems: string[];
}

/**
 * Feeds frames through an OrderBookKeeper and checks every invariant the synthetic market
 * promises; returns the problems found instead of throwing so fast-check can report a seed.
 */
function checkMarket(header: RecordingHeader, frames: Iterable<RecordedFrame>, minLevels = 50): MarketCheck {
  const instruments = new Map(Object.entries(header.symbols).map(([s, info]) => [s, new Instrument(s, info)]));
  const keeper = new OrderBookKeeper({ resync: { resync: () => Promise.resolve() }, instrument: (s) => instruments.get(s) });
  const problems: string[] = [];
  const lastSequence = new Map<string, number>();
  const minuteVolume = new Map<string, { minute: number; lots: number }>();
  let lastT = Number.NEGATIVE_INFINITY;
  let lastTradeId = 0;
  let trades = 0;
  let bookMessages = 0;
  let candles = 0;
  const onGrid = (symbol: string, price: string, quantity: string, where: string): void => {
    const instrument = instruments.get(symbol) as Instrument;
    if (!Number.isInteger(instrument.priceToTicks(price))) problems.push(`${where}: price ${price} off the tick grid`);
    if (quantity !== '0' && !(instrument.quantityToLots(quantity) > 0)) problems.push(`${where}: quantity ${quantity} off the lot grid`);
  };
  for (const frame of frames) {
    if (frame.t < lastT) problems.push(`frame at ${frame.t} goes back in time`);
    lastT = frame.t;
    const msg = frame.msg as Message;
    if (msg.ch === 'orderbook/full') {
      bookMessages++;
      const payload = (msg.snapshot ?? msg.update) as Record<string, BookEntry>;
      for (const [symbol, entry] of Object.entries(payload)) {
        const previous = lastSequence.get(symbol);
        if (previous === undefined && msg.snapshot === undefined) problems.push(`${symbol}: update before the first snapshot`);
        if (previous !== undefined && entry.s !== previous + 1) problems.push(`${symbol}: sequence ${previous} -> ${entry.s}`);
        lastSequence.set(symbol, entry.s);
        for (const [p, q] of [...entry.a, ...entry.b]) onGrid(symbol, p, q, `${symbol} s=${entry.s}`);
      }
      keeper.handleMessage(msg, frame.t);
      for (const symbol of Object.keys(payload)) {
        const book = keeper.book(symbol);
        if (book === undefined) continue; // the keeper's stats report why
        if (book.size('bid') < minLevels || book.size('ask') < minLevels) {
          problems.push(`${symbol}: ${book.size('bid')} bids / ${book.size('ask')} asks after s=${book.sequence}`);
        }
      }
    } else if (msg.ch === 'trades') {
      for (const [symbol, list] of Object.entries(msg.update as Record<string, TradeEntry[]>)) {
        const book = keeper.book(symbol);
        for (const trade of list) {
          trades++;
          if (trade.i <= lastTradeId) problems.push(`trade id ${trade.i} after ${lastTradeId}`);
          lastTradeId = trade.i;
          onGrid(symbol, trade.p, trade.q, `trade ${trade.i}`);
          if (!(Number(trade.q) > 0)) problems.push(`trade ${trade.i}: empty quantity`);
          // The book update follows the trades frame, so the keeper still shows the levels taken.
          const resting = book?.depthAt(trade.s === 'buy' ? 'ask' : 'bid', trade.p);
          const instrument = instruments.get(symbol) as Instrument;
          if (resting === undefined || instrument.quantityToLots(resting) < instrument.quantityToLots(trade.q)) {
            problems.push(`trade ${trade.i} ${trade.s} ${trade.q} @ ${trade.p}: only ${resting ?? 'no book'} was resting`);
          }
          const minute = trade.t - (trade.t % 60_000);
          const volume = minuteVolume.get(symbol);
          const lots = instrument.quantityToLots(trade.q);
          minuteVolume.set(symbol, volume?.minute === minute ? { minute, lots: volume.lots + lots } : { minute, lots });
        }
      }
    } else if (msg.ch === 'candles/M1') {
      for (const [symbol, list] of Object.entries(msg.update as Record<string, CandleEntry[]>)) {
        const instrument = instruments.get(symbol) as Instrument;
        for (const candle of list) {
          candles++;
          const [o, c, h, l] = [candle.o, candle.c, candle.h, candle.l].map((p) => instrument.priceToTicks(p)) as [number, number, number, number];
          if (!(l <= Math.min(o, c) && h >= Math.max(o, c))) problems.push(`${symbol} candle ${candle.t}: o/c outside l..h`);
          const volume = minuteVolume.get(symbol);
          if (volume?.minute !== candle.t || volume.lots !== instrument.quantityToLots(candle.v)) {
            problems.push(`${symbol} candle ${candle.t}: volume ${candle.v} is not the sum of the minute's trades`);
          }
        }
      }
    } else {
      problems.push(`unexpected channel ${msg.ch}`);
    }
  }
  const { gaps, crossed, invalid, snapshots } = keeper.stats;
  if (gaps + crossed + invalid > 0) problems.push(`keeper: ${gaps} gaps, ${crossed} crossed, ${invalid} invalid`);
  if (snapshots !== instruments.size) problems.push(`keeper: ${snapshots} snapshots for ${instruments.size} symbols`);
  return { trades, bookMessages, candles, problems };
}

function text(frames: Iterable<RecordedFrame>): string {
  let out = '';
  for (const frame of frames) out += `${JSON.stringify(frame)}\n`;
  return out;
}

describe('SyntheticMarket', () => {
  it('keeps every invariant over ten simulated minutes of two symbols', () => {
    const market = new SyntheticMarket({ seed: 1, symbols: ['BTCUSDT', 'ETHUSDT'] });
    const check = checkMarket(market.header(), market.frames({ start: START, durationMs: 600_000 }));
    expect(check.problems.slice(0, 5)).toEqual([]);
    // A believable market trades: at least one trade a second per symbol on the defaults.
    expect(check.trades).toBeGreaterThan(1200);
    expect(check.candles).toBeGreaterThan(0);
    expect(check.bookMessages).toBeGreaterThan(10_000);
  });

  it('has a checker that does fail: a dropped update, a trade off the book and a crossing level are caught', () => {
    const market = new SyntheticMarket({ seed: 2, symbols: ['ETHUSDT'] });
    const frames = [...market.frames({ start: START, durationMs: 20_000 })];
    const updateAt = frames.findIndex((f, i) => i > 0 && (f.msg as Message).ch === 'orderbook/full');
    const dropped = frames.filter((_, i) => i !== updateAt);
    expect(checkMarket(market.header(), dropped).problems.join('\n')).toMatch(/sequence \d+ -> \d+/);

    const tradeAt = frames.findIndex((f) => (f.msg as Message).ch === 'trades');
    const msg = structuredClone(frames[tradeAt]?.msg) as { update: { ETHUSDT: TradeEntry[] } };
    (msg.update.ETHUSDT[0] as TradeEntry).p = '1.00';
    const offBook = frames.map((f, i) => (i === tradeAt ? { ...f, msg } : f));
    expect(checkMarket(market.header(), offBook).problems.join('\n')).toMatch(/@ 1\.00: only 0\.0000 was resting/);

    const crossing = structuredClone(frames[updateAt]?.msg) as { update: { ETHUSDT: BookEntry } };
    crossing.update.ETHUSDT.b.push(['99999.00', '1.0000']);
    const crossed = frames.map((f, i) => (i === updateAt ? { ...f, msg: crossing } : f));
    expect(checkMarket(market.header(), crossed).problems.join('\n')).toMatch(/1 crossed/);
  });

  it('keeps the invariants for any seed and parameters on short runs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.record({
          volatility: fc.double({ min: 0, max: 3, noNaN: true }),
          spreadBps: fc.double({ min: 0, max: 20, noNaN: true }),
          marketRate: fc.double({ min: 0, max: 20, noNaN: true }),
          cancelRate: fc.double({ min: 0, max: 30, noNaN: true }),
          sweepProbability: fc.double({ min: 0, max: 1, noNaN: true }),
        }),
        (seed, params) => {
          const market = new SyntheticMarket({ seed, symbols: [{ symbol: 'ETHUSDT', ...params }, 'SOLUSDT'], stepMs: 50 });
          const check = checkMarket(market.header(), market.frames({ start: START, durationMs: 20_000 }));
          expect(check.problems.slice(0, 5)).toEqual([]);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('moves the mid with the configured volatility, in clusters (GARCH)', () => {
    const market = new SyntheticMarket({ seed: 1, symbols: [{ symbol: 'BTCUSDT', volatility: 0.6 }] });
    const keeper = new OrderBookKeeper({ resync: { resync: () => Promise.resolve() } });
    const mids: number[] = [];
    let nextSample = START + 1000;
    for (const frame of market.frames({ start: START, durationMs: 1_800_000 })) {
      keeper.handleMessage(frame.msg, frame.t);
      for (; frame.t >= nextSample; nextSample += 1000) {
        const book = keeper.book('BTCUSDT');
        if (book) mids.push((book.bestBidPrice + book.bestAskPrice) / 2);
      }
    }
    const returns = mids.slice(1).map((m, i) => Math.log(m / (mids[i] as number)));
    const squares = returns.map((r) => r * r);
    const meanSquare = squares.reduce((a, b) => a + b, 0) / squares.length;
    const annualised = Math.sqrt(meanSquare * 365 * 86_400);
    expect(annualised).toBeGreaterThan(0.4);
    expect(annualised).toBeLessThan(0.8);
    // Volatility clustering: a large move tends to follow a large move.
    let covariance = 0;
    let variance = 0;
    for (let i = 0; i < squares.length; i++) {
      variance += ((squares[i] as number) - meanSquare) ** 2;
      if (i > 0) covariance += ((squares[i] as number) - meanSquare) * ((squares[i - 1] as number) - meanSquare);
    }
    expect(covariance / variance).toBeGreaterThan(0.03);
  });

  it('is deterministic: the same seed gives the same frames byte for byte, another seed differs', () => {
    const options = { start: START, durationMs: 30_000 };
    const a = text(new SyntheticMarket({ seed: 99, symbols: ['BTCUSDT', 'ETHUSDT'] }).frames(options));
    const again = new SyntheticMarket({ seed: 99, symbols: ['BTCUSDT', 'ETHUSDT'] });
    expect(text(again.frames(options))).toBe(a);
    expect(text(again.frames(options))).toBe(a); // each call starts over from the seed
    expect(text(new SyntheticMarket({ seed: 100, symbols: ['BTCUSDT', 'ETHUSDT'] }).frames(options))).not.toBe(a);
  });

  it('gives each symbol its own stream: adding a symbol leaves the others book unchanged', () => {
    const books = (symbols: string[]): string[] => {
      const out: string[] = [];
      for (const frame of new SyntheticMarket({ seed: 5, symbols }).frames({ start: START, durationMs: 5_000 })) {
        const msg = frame.msg as Message;
        if (msg.ch === 'orderbook/full' && (msg.snapshot ?? msg.update)?.BTCUSDT) out.push(JSON.stringify(frame));
      }
      return out;
    };
    expect(books(['BTCUSDT', 'ETHUSDT'])).toEqual(books(['BTCUSDT']));
  });

  it('starts with one snapshot per symbol at the start time and honours maxFrames lazily', () => {
    const market = new SyntheticMarket({ seed: 3, symbols: ['ETHUSDT', 'BTCUSDT'] });
    const frames = [...market.frames({ start: START, maxFrames: 500 })];
    expect(frames).toHaveLength(500);
    const first = frames.slice(0, 2).map((f) => f.msg as Message);
    expect(first.map((m) => Object.keys(m.snapshot ?? {})[0])).toEqual(['ETHUSDT', 'BTCUSDT']);
    const snapshot = first[1]?.snapshot?.BTCUSDT as BookEntry;
    expect(snapshot.t).toBe(START);
    expect(snapshot.s).toBe(1);
    expect(snapshot.b.length).toBeGreaterThanOrEqual(50);
    expect(snapshot.a[0]?.[0]).toMatch(/^\d+\.\d{2}$/);
    expect(snapshot.b[0]?.[1]).toMatch(/^\d+\.\d{5}$/);
    expect(frames[0]?.t).toBe(START + 3); // default latency
    // No duration and no frame limit: endless, but only what is pulled is computed.
    const endless = market.frames({ start: START })[Symbol.iterator]();
    for (let i = 0; i < 10_000; i++) expect(endless.next().done).toBe(false);
  });

  it('stops at the end of the duration', () => {
    const frames = [...new SyntheticMarket({ seed: 4 }).frames({ start: START, durationMs: 2_000 })];
    expect(frames.at(-1)?.t).toBeLessThanOrEqual(START + 2_000 + 3);
    expect(frames.length).toBeGreaterThan(10);
  });

  it('describes itself in the recording header with API v3 Symbol fields', () => {
    const header = new SyntheticMarket({ seed: 12, symbols: ['BTCUSDT', { symbol: 'XRPEUR', tickSize: '0.0001', quantityIncrement: '0.1', startPrice: '0.5000' }] }).header();
    expect(header.venue).toBe('sandbox');
    expect(header.note).toBe('synthetic market, seed 12');
    const btc = header.symbols.BTCUSDT;
    expect([btc?.tick_size.toFixed(), btc?.quantity_increment.toFixed(), btc?.base_currency, btc?.quote_currency]).toEqual(['0.01', '0.00001', 'BTC', 'USDT']);
    const xrp = header.symbols.XRPEUR;
    expect([xrp?.tick_size.toFixed(), xrp?.base_currency, xrp?.quote_currency, xrp?.fee_currency]).toEqual(['0.0001', 'XRP', 'EUR', 'EUR']);
  });

  it('rejects bad parameters with a ValidationError naming the field', () => {
    const bad = (options: ConstructorParameters<typeof SyntheticMarket>[0], field: string): void => {
      let error: unknown;
      try {
        new SyntheticMarket(options);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe(field);
    };
    bad({ seed: 0.5 }, 'seed');
    bad({ seed: 1, symbols: [] }, 'symbols');
    bad({ seed: 1, symbols: ['btcusdt'] }, 'symbols[0].symbol');
    bad({ seed: 1, symbols: ['BTCUSDT', 'BTCUSDT'] }, 'symbols[1].symbol');
    bad({ seed: 1, symbols: ['ABCXYZ'] }, 'symbols[0].quoteCurrency');
    bad({ seed: 1, symbols: [{ symbol: 'BTCUSDT', startPrice: '60000.001' }] }, 'symbols[0].startPrice');
    bad({ seed: 1, symbols: [{ symbol: 'BTCUSDT', startPrice: '1.00' }] }, 'symbols[0].startPrice');
    bad({ seed: 1, symbols: [{ symbol: 'BTCUSDT', tickSize: '0' }] }, 'symbols[0].tickSize');
    bad({ seed: 1, symbols: [{ symbol: 'BTCUSDT', volatility: -1 }] }, 'symbols[0].volatility');
    bad({ seed: 1, symbols: [{ symbol: 'BTCUSDT', garchAlpha: 0.5, garchBeta: 0.5 }] }, 'symbols[0].garchBeta');
    bad({ seed: 1, symbols: [{ symbol: 'BTCUSDT', limitRate: Number.NaN }] }, 'symbols[0].limitRate');
    bad({ seed: 1, symbols: [{ symbol: 'BTCUSDT', orderSize: '0.000001' }] }, 'symbols[0].orderSize');
    bad({ seed: 1, symbols: [{ symbol: 'BTCUSDT', minLevels: 70 }] }, 'symbols[0].minLevels');
    bad({ seed: 1, symbols: [{ symbol: 'BTCUSDT', joinWeight: 0, improveWeight: 0, deepWeight: 0 }] }, 'symbols[0].joinWeight');
    bad({ seed: 1, stepMs: 0 }, 'stepMs');
    bad({ seed: 1, latencyMs: -1 }, 'latencyMs');
    const market = new SyntheticMarket({ seed: 1 });
    expect(() => market.frames({ start: 1.5 }).next()).toThrow(/^start:/);
    expect(() => market.frames({ start: START, durationMs: -1 }).next()).toThrow(/^durationMs:/);
    expect(() => market.frames({ start: START, maxFrames: 2.5 }).next()).toThrow(/^maxFrames:/);
  });
});
