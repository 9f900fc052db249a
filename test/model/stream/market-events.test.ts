import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../framework/model/errors.js';
import { parseMarketNotification, type MarketEvent } from '../../../framework/model/stream/market-events.js';
import {
  CANDLE_KEYS, PARTIAL_BOOK_KEYS, TICKER_KEYS, TOP_OF_BOOK_KEYS, TRADE_KEYS,
} from '../../../framework/model/stream/market-records.js';

type Json = Record<string, unknown>;

/** Where an event keeps its records and which wire-key table produced them. */
function recordsOf(e: MarketEvent): { records: readonly object[]; keys: Readonly<Record<string, string>> } {
  switch (e.kind) {
    case 'trades': return { records: e.trades, keys: TRADE_KEYS };
    case 'candles': return { records: e.candles, keys: CANDLE_KEYS };
    case 'ticker': return { records: [e.ticker], keys: TICKER_KEYS };
    case 'tickerPrice': return { records: [e.price], keys: CANDLE_KEYS };
    case 'partialBook': return { records: [e.book], keys: PARTIAL_BOOK_KEYS };
    case 'topOfBook': return { records: [e.top], keys: TOP_OF_BOOK_KEYS };
  }
}

/** Same text: scalars by their JSON text, level arrays element by element. */
function sameText(input: unknown, output: unknown): boolean {
  if (Array.isArray(input)) {
    return Array.isArray(output) && input.length === output.length && input.every((v, i) => sameText(v, output[i]));
  }
  if (input === null) return output === null;
  return String(input) === String(output);
}

/** Asserts that every record field of a notification frame survives with identical text. */
function expectLossless(frame: Json, events: readonly MarketEvent[], receivedAt: number): void {
  const key = ['snapshot', 'update', 'data'].find((k) => frame[k] !== undefined) as string;
  const bySymbol = frame[key] as Json;
  expect(events.map((e) => e.symbol)).toEqual(Object.keys(bySymbol));
  for (const e of events) {
    expect(e.channel).toBe(frame['ch']);
    expect(e.snapshot).toBe(key === 'snapshot');
    expect(e.receivedAt).toBe(receivedAt);
    const raw = bySymbol[e.symbol];
    const rawRecords = (Array.isArray(raw) ? raw : [raw]) as Json[];
    const { records, keys } = recordsOf(e);
    expect(records).toHaveLength(rawRecords.length);
    rawRecords.forEach((rawRecord, i) => {
      const out = records[i] as Json;
      for (const wireKey of Object.keys(rawRecord)) {
        const name = keys[wireKey];
        expect(name, `${e.channel} key ${wireKey} has a mapping`).toBeDefined();
        expect(sameText(rawRecord[wireKey], out[name as string]), `${e.channel} ${e.symbol} ${wireKey}`).toBe(true);
      }
    });
    if (rawRecords.length > 0) {
      expect(e.exchangeTime).toBe(Math.max(...rawRecords.map((r) => Number(r['t']))));
    }
  }
}

describe('parseMarketNotification on a real capture', () => {
  const path = fileURLToPath(new URL('../../fixtures/fmfw-public-excerpt.v3.jsonl', import.meta.url));
  const lines = readFileSync(path, 'utf8').trim().split('\n').slice(1);
  const records = lines.map((l) => JSON.parse(l) as { t: number; msg: Json });

  it('parses every non-orderbook/full data frame without loss', () => {
    let frames = 0;
    const kinds = new Set<string>();
    for (const { t, msg } of records) {
      const events = parseMarketNotification(msg, t);
      if (msg['ch'] === undefined || msg['ch'] === 'orderbook/full') {
        expect(events).toEqual([]);
        continue;
      }
      frames++;
      for (const e of events) kinds.add(e.kind);
      expectLossless(msg, events, t);
    }
    expect(frames).toBeGreaterThan(80);
    expect([...kinds].sort()).toEqual(['candles', 'ticker', 'trades']);
  });
});

describe('parseMarketNotification on every channel family', () => {
  const frames: Json[] = [
    { ch: 'trades', snapshot: { BTCUSDT: [{ t: 1626861109494, i: 1555634969, p: '30881.96', q: '12.66828', s: 'buy' }, { t: 1626861109500, i: '1555634970', p: '30882.00', q: '0.1', s: 'sell' }] } },
    { ch: 'trades', snapshot: { BTCUSDT: [] } },
    { ch: 'candles/M30', update: { ETHBTC: [{ t: 1626860340000, o: '0.06025', c: '0.06028', h: '0.06028', l: '0.06025', v: '3.6', q: '0.21695' }] } },
    { ch: 'ticker/price/3s/batch', data: {
      BTCUSDT: { t: 1614815872000, o: '32636.79', c: '32085.51', h: '33379.92', l: '30683.28', v: '11.90667', q: '384081.1955629' },
      ETHBTC: { t: 1614815872000, o: '0.0301', c: '0.0300', h: '0.0302', l: '0.0299', v: '1.5', q: '0.045' },
    } },
    { ch: 'ticker/1s', data: { IDLECOIN: { t: 1614815872000, a: null, A: null, b: null, B: null, c: null, o: null, h: null, l: null, v: '0', q: '0', p: null, P: null } } },
    { ch: 'orderbook/D5/100ms', data: { ETHBTC: { t: 1626866578796, s: 27617207, a: [['0.060506', '0'], ['0.060548', '12.19']], b: [['0.060501', '3.14']] } } },
    { ch: 'orderbook/D10/500ms/batch', data: {
      ETHBTC: { t: 1626866578796, s: 1, a: [], b: [] },
      BTCUSDT: { t: 1626866578797, s: 2, a: [['30000', '1']], b: [] },
    } },
    { ch: 'orderbook/top/1000ms', data: { ETHBTC: { t: 1626866578796, a: '0.060506', A: '0.5', b: '0.060501', B: '3.14' } } },
  ];

  it.each(frames.map((f) => [f['ch'] as string, f] as const))('%s keeps every field', (_ch, frame) => {
    const events = parseMarketNotification(frame, 1_700_000_000_123.5);
    expect(events.length).toBeGreaterThan(0);
    expectLossless(frame, events, 1_700_000_000_123.5);
  });

  it('tags events with kind-specific fields', () => {
    const [candles] = parseMarketNotification(frames[2], 1);
    expect(candles?.kind === 'candles' && candles.period).toBe('M30');
    const [book] = parseMarketNotification(frames[5], 1);
    expect(book?.kind === 'partialBook' && book.depth).toBe('D5');
    const [emptyTrades] = parseMarketNotification(frames[1], 42);
    expect(emptyTrades?.exchangeTime).toBe(42);
  });

  it('returns [] for frames it does not own', () => {
    expect(parseMarketNotification({ result: { ch: 'trades', subscriptions: ['BTCUSDT'] }, id: 1 }, 1)).toEqual([]);
    expect(parseMarketNotification({ error: { code: 2001, message: 'Symbol not found' }, id: 2 }, 1)).toEqual([]);
    expect(parseMarketNotification({ ch: 'orderbook/full', update: { BTCUSDT: { t: 1, s: 2, a: [], b: [] } } }, 1)).toEqual([]);
    expect(parseMarketNotification({ jsonrpc: '2.0', method: 'spot_order', params: {} }, 1)).toEqual([]);
  });

  it('throws a ParseError naming the field for malformed notifications', () => {
    expect(() => parseMarketNotification({ ch: 'trades', update: { BTCUSDT: [{ t: 1, i: 2, p: 'abc', q: '1', s: 'buy' }] } }, 1))
      .toThrow(/update\.BTCUSDT\[0\]\.p: must be a decimal number/);
    expect(() => parseMarketNotification({ ch: 'ticker/1s', data: { BTCUSDT: { t: 1, v: '1' } } }, 1)).toThrow(/data\.BTCUSDT\.q: is required/);
    expect(() => parseMarketNotification({ ch: 'orderbook/D5/100ms', data: { X: { t: 1, s: 1, a: [['1']], b: [] } } }, 1)).toThrow(/data\.X\.a\[0\]/);
    expect(() => parseMarketNotification({ ch: 'trades', update: { BTCUSDT: {} } }, 1)).toThrow(/update\.BTCUSDT: must be an array/);
    expect(() => parseMarketNotification({ ch: 'candles/M2', update: {} }, 1)).toThrow(ParseError);
    expect(() => parseMarketNotification({ ch: 'trades' }, 1)).toThrow(/must carry snapshot, update or data/);
    expect(() => parseMarketNotification('nope', 1)).toThrow(ParseError);
  });
});
