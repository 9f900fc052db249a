import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../framework/model/errors.js';
import { parseChannel } from '../../../framework/model/stream/channel.js';

describe('parseChannel', () => {
  it('decodes every documented channel family', () => {
    expect(parseChannel('trades')).toEqual({ kind: 'trades', batch: false });
    expect(parseChannel('candles/M1')).toEqual({ kind: 'candles', period: 'M1', batch: false });
    expect(parseChannel('candles/1M')).toEqual({ kind: 'candles', period: '1M', batch: false });
    expect(parseChannel('ticker/1s')).toEqual({ kind: 'ticker', speed: '1s', batch: false });
    expect(parseChannel('ticker/3s/batch')).toEqual({ kind: 'ticker', speed: '3s', batch: true });
    expect(parseChannel('ticker/price/1s')).toEqual({ kind: 'tickerPrice', speed: '1s', batch: false });
    expect(parseChannel('ticker/price/3s/batch')).toEqual({ kind: 'tickerPrice', speed: '3s', batch: true });
    expect(parseChannel('orderbook/full')).toEqual({ kind: 'fullBook', batch: false });
    expect(parseChannel('orderbook/D5/100ms')).toEqual({ kind: 'partialBook', depth: 'D5', speed: '100ms', batch: false });
    expect(parseChannel('orderbook/D20/1000ms/batch')).toEqual({ kind: 'partialBook', depth: 'D20', speed: '1000ms', batch: true });
    expect(parseChannel('orderbook/top/500ms/batch')).toEqual({ kind: 'topOfBook', speed: '500ms', batch: true });
  });

  it.each([
    'trade', 'trades/batch', 'candles/M2', 'candles', 'ticker/2s', 'ticker/price', 'orderbook/full/batch', 'orderbook/D7/100ms',
    'orderbook/D5/200ms', 'orderbook/top', 'orderbook/D5/100ms/extra', '', 'ticker/1s/batch/batch',
  ])('rejects %j with a ParseError', (ch) => {
    expect(() => parseChannel(ch)).toThrow(ParseError);
  });
});
