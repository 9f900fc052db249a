import type { RecordedFrame } from '../../backtest/recording/recording-format.js';
import type { MarketSource } from '../../backtest/sandbox/sandbox-config.js';
import { parseSymbolInfo } from '../../framework/model/resources/symbol.js';
import type { SeededRandom } from './seeded-random.js';

/** The one symbol of the soak market: BTCUSDT on a 0.01 grid, fees in USDT. */
export const SOAK_SYMBOL = 'BTCUSDT';
const SYMBOL_INFO = parseSymbolInfo({
  type: 'spot', base_currency: 'BTC', quote_currency: 'USDT', tick_size: '0.01', quantity_increment: '0.0001',
  take_rate: '0.001', make_rate: '0.0005', fee_currency: 'USDT', expiry: null,
});

/** Options of {@link SoakMarket}. */
export interface SoakMarketOptions {
  readonly random: SeededRandom;
  /** Time between book snapshots (ms). Default 250. */
  readonly tickMs?: number;
  /** Chance of a public trade on each tick. Default 0.2. */
  readonly tradeProbability?: number;
}

/** Mid of the walk in cents; it is pulled back to here so the risk price band never trips. */
const CENTER_CENTS = 10_000;
/** Outside half spread (cents): wider than the market maker's 10 bps, so its quotes are best. */
const HALF_SPREAD_CENTS = 15;

/**
 * A moving BTCUSDT market pushed to the sandbox in real time: a mean-reverting random walk of the
 * mid (integer cents), a one-level book snapshot each tick, and now and then a public trade up to
 * 0.25 % through the mid, which fills a market maker's resting quote when it prints through it
 * (the venue fills resting orders on prints through their price). Frames carry the wall clock.
 * Assumes nothing else trades the symbol; every draw comes from the seed.
 */
export class SoakMarket {
  private midCents = CENTER_CENTS;
  private sequence = 0;
  private tradeId = 0;
  private lastTime = 0;
  private stopped = false;
  private wake: (() => void) | undefined;
  /** Public trades printed so far. */
  trades = 0;

  constructor(private readonly options: SoakMarketOptions) {}

  /** The sandbox market source of this market (starting now). */
  source(): MarketSource {
    return { kind: 'frames', symbols: { [SOAK_SYMBOL]: SYMBOL_INFO }, startTime: Date.now(), frames: () => this.frames() };
  }

  /** Ends the market (the sandbox's feed then ends). */
  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  private async *frames(): AsyncGenerator<RecordedFrame> {
    const tickMs = this.options.tickMs ?? 250;
    while (!this.stopped) {
      yield* this.tick();
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, tickMs);
      });
      this.wake = undefined;
    }
  }

  private *tick(): Generator<RecordedFrame> {
    const { random } = this.options;
    const pull = Math.sign(CENTER_CENTS - this.midCents) * (Math.abs(CENTER_CENTS - this.midCents) > 60 ? 1 : 0);
    this.midCents += random.integer('mid-step', -3, 3) + pull;
    const s = ++this.sequence;
    const t = this.time();
    yield {
      t, src: 'ws/public',
      msg: {
        ch: 'orderbook/full',
        snapshot: { [SOAK_SYMBOL]: { t, s, a: [[cents(this.midCents + HALF_SPREAD_CENTS), '5']], b: [[cents(this.midCents - HALF_SPREAD_CENTS), '5']] } },
      },
    };
    if (random.next('trade') >= (this.options.tradeProbability ?? 0.2)) return;
    const side = random.next('trade-side') < 0.5 ? 'sell' : 'buy';
    const through = random.integer('trade-depth', 0, 25);
    const price = side === 'sell' ? this.midCents - through : this.midCents + through;
    const quantity = `0.0${random.integer('trade-size', 4, 15).toString().padStart(2, '0')}`;
    const tt = this.time();
    this.trades++;
    yield { t: tt, src: 'ws/public', msg: { ch: 'trades', update: { [SOAK_SYMBOL]: [{ t: tt, i: ++this.tradeId, p: cents(price), q: quantity, s: side }] } } };
  }

  /** The wall clock, strictly increasing (the venue orders frames by time). */
  private time(): number {
    this.lastTime = Math.max(this.lastTime + 1, Date.now());
    return this.lastTime;
  }
}

/** Integer cents as a price text (`10012` -> `100.12`). */
function cents(n: number): string {
  return `${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}`;
}
