import { writeFileSync } from 'node:fs';
import { Prng } from '../../backtest/venue/prng.js';

/** The symbol of {@link writeCandleRecording}'s recordings (the sample's BTCUSDT instrument). */
export const CANDLE_SYMBOL = 'BTCUSDT';

const HEADER = {
  format: 'tradeloop.recording', version: 1, venue: 'bench', note: 'seeded random walk of M1 candles', symbols: {
    [CANDLE_SYMBOL]: {
      type: 'spot', expiry: null, base_currency: 'BTC', quote_currency: 'USDT', status: 'working', quantity_increment: '0.00001',
      tick_size: '0.01', take_rate: '0.0025', make_rate: '0.001', fee_currency: 'USDT', margin_trading: false,
    },
  },
};

/** Cents as a price text with two decimals (integer arithmetic only). */
function price(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/**
 * Writes a candles-only recording (plain JSON Lines) of `minutes` closed M1 candles of
 * {@link CANDLE_SYMBOL} from `start` (a minute boundary): a seeded random walk in whole cents with
 * slow swings, so moving averages cross now and then. Each candle is received when its minute ends.
 */
export function writeCandleRecording(file: string, start: number, minutes: number, seed = 7): void {
  const prng = new Prng(seed);
  const next = (): number => prng.uniform();
  const lines = [JSON.stringify(HEADER)];
  let close = 6_000_000;
  for (let i = 0; i < minutes; i++) {
    const t = start + i * 60_000;
    const open = close;
    const drift = Math.round(Math.sin(i / 45) * 900);
    close = Math.max(100_000, open + drift + Math.round((next() - 0.5) * 6_000));
    const high = Math.max(open, close) + Math.round(next() * 2_500);
    const low = Math.min(open, close) - Math.round(next() * 2_500);
    const candle = { t, o: price(open), c: price(close), h: price(high), l: price(low), v: '1.5', q: price(Math.floor((close * 3) / 2)) };
    lines.push(JSON.stringify({ t: t + 60_000, src: 'ws/public', msg: { ch: 'candles/M1', update: { [CANDLE_SYMBOL]: [candle] } } }));
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
}
