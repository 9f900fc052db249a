import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../framework/model/errors.js';
import {
  parsePublicChannel, validateSubscribeParams, validateSymbols,
} from '../../../framework/exchange/ws/public-channel.js';

describe('parsePublicChannel', () => {
  it.each([
    ['trades', 'trades', false],
    ['candles/M1', 'candles', false],
    ['candles/1M', 'candles', false],
    ['ticker/1s', 'ticker', false],
    ['ticker/3s/batch', 'ticker', true],
    ['ticker/price/1s', 'tickerPrice', false],
    ['ticker/price/3s/batch', 'tickerPrice', true],
    ['orderbook/full', 'fullBook', false],
    ['orderbook/D5/100ms', 'partialBook', false],
    ['orderbook/D20/1000ms/batch', 'partialBook', true],
    ['orderbook/top/500ms', 'topOfBook', false],
    ['orderbook/top/1000ms/batch', 'topOfBook', true],
  ])('accepts %s', (ch, kind, batch) => {
    expect(parsePublicChannel(ch)).toMatchObject({ ch, kind, batch });
  });

  it.each(['trade', 'trades/batch', 'candles/M2', 'ticker/2s', 'ticker/price/1s/x', 'orderbook/D15/100ms', 'orderbook/D5/200ms',
    'orderbook/full/batch', 'orderbook/top/1s', '', 'orderbook'])('rejects %j naming the field', (ch) => {
    expect(() => parsePublicChannel(ch)).toThrow(ValidationError);
    expect(() => parsePublicChannel(ch)).toThrow(/^ch: /);
  });
});

describe('validateSymbols / validateSubscribeParams', () => {
  const trades = parsePublicChannel('trades');
  const ticker = parsePublicChannel('ticker/1s');

  it('dedups and allows "*" only alone on ticker channels', () => {
    expect(validateSymbols(trades, ['BTCUSDT', 'ETHBTC', 'BTCUSDT'])).toEqual(['BTCUSDT', 'ETHBTC']);
    expect(validateSymbols(ticker, ['*'])).toEqual(['*']);
    expect(() => validateSymbols(trades, ['*'])).toThrow(/not allowed on trades/);
    expect(() => validateSymbols(ticker, ['*', 'BTCUSDT'])).toThrow(/only symbol/);
    expect(() => validateSymbols(trades, [])).toThrow(/non-empty/);
    expect(() => validateSymbols(trades, ['BTC USDT'])).toThrow(ValidationError);
  });

  it('takes limit 0-1000 on history channels only', () => {
    expect(validateSubscribeParams(trades, { limit: 0 })).toEqual({ limit: 0 });
    expect(validateSubscribeParams(trades, { limit: 1000 })).toEqual({ limit: 1000 });
    expect(() => validateSubscribeParams(trades, { limit: 1001 })).toThrow(/params.limit/);
    expect(() => validateSubscribeParams(trades, { limit: 1.5 })).toThrow(/params.limit/);
    expect(() => validateSubscribeParams(ticker, { limit: 10 })).toThrow(/not a parameter of ticker\/1s/);
  });
});
