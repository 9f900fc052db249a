import { describe, expect, it } from 'vitest';
import { parseOrderBookFrames } from '../../../framework/exchange/book/order-book-frame.js';
import { ParseError, UnrepresentableValueError } from '../../../framework/model/errors.js';

function parseErrorOf(run: () => unknown): ParseError {
  try {
    run();
  } catch (error) {
    if (error instanceof ParseError) return error;
    throw error;
  }
  throw new Error('expected a ParseError');
}

describe('parseOrderBookFrames', () => {
  it('reads a snapshot and an update, keeping the parsed level arrays', () => {
    const message = JSON.parse('{"ch":"orderbook/full","snapshot":{"NEOBTC":{"t":1633806854624,"s":1498336,"a":[["0.0008790","18.89"]],"b":[["0.0008785","17.00"]]}}}') as {
      snapshot: { NEOBTC: { a: unknown } };
    };
    const [frame, ...rest] = parseOrderBookFrames(message, 1633806854954.659);
    expect(rest).toEqual([]);
    expect(frame).toEqual({
      symbol: 'NEOBTC', sequence: 1498336, exchangeTime: 1633806854624, receivedAt: 1633806854954.659, snapshot: true,
      asks: [['0.0008790', '18.89']], bids: [['0.0008785', '17.00']],
    });
    expect(frame?.asks).toBe(message.snapshot.NEOBTC.a);
    const update = parseOrderBookFrames({ ch: 'orderbook/full', update: { NEOBTC: { t: 1, s: 2, a: [], b: [['1', '0']] } } }, 5);
    expect(update[0]?.snapshot).toBe(false);
  });

  it('returns [] for other channels and non-notification frames', () => {
    expect(parseOrderBookFrames({ ch: 'trades', update: { X: [] } }, 0)).toEqual([]);
    expect(parseOrderBookFrames({ result: { ch: 'orderbook/full', subscriptions: ['X'] }, id: 1 }, 0)).toEqual([]);
    expect(parseOrderBookFrames(null, 0)).toEqual([]);
    expect(parseOrderBookFrames('text', 0)).toEqual([]);
  });

  it('reads one frame per symbol of a batch, and tolerates an absent side and numeric levels', () => {
    const frames = parseOrderBookFrames({ ch: 'orderbook/full', update: { A: { t: '1633806854624', s: 3, b: [[1.5, 2]] }, B: { t: 2, s: 9, a: [] } } }, 0);
    expect(frames.map((f) => [f.symbol, f.sequence, f.exchangeTime])).toEqual([['A', 3, 1633806854624], ['B', 9, 2]]);
    expect(frames[0]?.asks).toEqual([]);
    expect(frames[0]?.bids).toEqual([['1.5', '2']]);
  });

  it('names the field of malformed input', () => {
    const cases: [unknown, string][] = [
      [{ ch: 'orderbook/full' }, 'orderbook/full'],
      [{ ch: 'orderbook/full', update: [] }, 'update'],
      [{ ch: 'orderbook/full', update: { X: 5 } }, 'update.X'],
      [{ ch: 'orderbook/full', update: { X: { t: 1, a: [] } } }, 'update.X.s'],
      [{ ch: 'orderbook/full', update: { X: { t: 1, s: 1.5 } } }, 'update.X.s'],
      [{ ch: 'orderbook/full', update: { X: { s: 1 } } }, 'update.X.t'],
      [{ ch: 'orderbook/full', snapshot: { X: { t: 1, s: 1, a: {} } } }, 'snapshot.X.a'],
      [{ ch: 'orderbook/full', update: { X: { t: 1, s: 1, b: [['1']] } } }, 'update.X.b[0]'],
      [{ ch: 'orderbook/full', update: { X: { t: 1, s: 1, b: [['1', '1'], ['-1', '1']] } } }, 'update.X.b[1][0]'],
      [{ ch: 'orderbook/full', update: { X: { t: 1, s: 1, a: [['1', null]] } } }, 'update.X.a[0][1]'],
      [{ ch: 'orderbook/full', update: { X: { t: 1, s: 1, a: [['1', 1e-7]] } } }, 'update.X.a[0][1]'],
    ];
    for (const [message, path] of cases) expect(parseErrorOf(() => parseOrderBookFrames(message, 0)).path).toBe(path);
  });

  it('refuses a numeric level a double may have changed (beyond 15 significant digits) with UnrepresentableValueError', () => {
    const levels = (b: unknown[]): unknown => JSON.parse(JSON.stringify({ ch: 'orderbook/full', update: { BTCUSDT: { t: 1, s: 1, b } } }).replace('"X"', '9007199254740993'));
    // 2^53 + 1 as a JSON number arrives as 2^53: the level sent cannot be known.
    const error = (() => {
      try {
        parseOrderBookFrames(levels([['X', '1']]), 0);
      } catch (e) {
        return e;
      }
    })() as UnrepresentableValueError;
    expect(error).toBeInstanceOf(UnrepresentableValueError);
    expect([error.instrument, error.field, error.value]).toEqual(['BTCUSDT', 'update.BTCUSDT.b[0][0]', '9007199254740992']);
    expect(() => parseOrderBookFrames(levels([[0.12345678901234568, '1']]), 0)).toThrow(UnrepresentableValueError);
    // Up to 15 significant digits the shortest text of the double is the number sent.
    expect(parseOrderBookFrames(levels([[123456789012.345, 0.000012345678901234]]), 0)[0]?.bids).toEqual([['123456789012.345', '0.000012345678901234']]);
  });
});
