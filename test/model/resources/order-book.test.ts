import { describe, expect, it } from 'vitest';
import { parseOrderBookMap, parseOrderBookSnapshot } from '../../../framework/model/resources/order-book.js';

describe('order book', () => {
  it('reads levels as exact text and drops nanosecond digits from the timestamp', () => {
    const book = parseOrderBookMap({
      ETHBTC: {
        timestamp: '2021-07-08T09:32:10.123456789Z',
        ask: [['0.020574', '0.5300'], ['0.020575', '1.0000']],
        bid: [['0.020566', '0.0030']],
      },
    })['ETHBTC'];
    expect(book?.timestamp).toBe(Date.UTC(2021, 6, 8, 9, 32, 10, 123));
    expect(book?.ask[1]).toEqual(['0.020575', '1.0000']);
    expect(book?.bid).toHaveLength(1);
  });

  it('names the failing level', () => {
    expect(() => parseOrderBookSnapshot({ timestamp: 1, ask: [['1', '2']], bid: [['1']] })).toThrow(/orderbook\.bid\[0\]: must be a \[price, amount\] pair/);
    expect(() => parseOrderBookSnapshot({ timestamp: 1, ask: [['1', 'x']], bid: [] })).toThrow(/orderbook\.ask\[0\]\[1\]/);
  });
});
