import type { RecordingHeader } from '../../backtest/recording/recording-format.js';
import { SyntheticMarket } from '../../backtest/venue/synthetic/synthetic-market.js';
import { loadRecording, type RecordedMessage } from './recording-messages.js';
import { sharedDataOr } from './paths.js';

/** Market data a book benchmark replays: a recording's header and messages, in memory. */
export interface BookDataSet {
  /** Short name for the figures' titles, e.g. `ETHUSDT recorded`. */
  readonly label: string;
  /** Where the data comes from (a file, or the synthetic market's parameters). */
  readonly source: string;
  readonly header: RecordingHeader;
  readonly messages: RecordedMessage[];
}

/** Virtual time of the synthetic BTCUSDT stretch: about as many book updates as the ETHUSDT recording. */
const SYNTHETIC_MS = 40 * 60 * 1000;
const SYNTHETIC_SEED = 7;

/**
 * The books the book and matching benchmarks run on:
 * - ETHUSDT recorded (the shared capture, else the shipped fixture): 0.01 tick at ~2,700 USDT,
 *   dense near the touch;
 * - BTCUSDT from the seeded synthetic market: 0.01 tick at ~60,000 USDT, levels about a basis
 *   point (~600 ticks) apart, so a side spans tens of thousands of ticks, as a BTC book does.
 * `only` keeps the sets whose label contains it (case-insensitive), e.g. `BENCH_BOOKS=btc`.
 */
export async function bookDataSets(only = process.env.BENCH_BOOKS ?? ''): Promise<BookDataSet[]> {
  const sets: BookDataSet[] = [];
  const wanted = (label: string): boolean => label.toLowerCase().includes(only.toLowerCase());
  if (wanted('ETHUSDT recorded')) {
    const file = sharedDataOr('ethusdt-2024-08-08.v3.jsonl.gz', 'test/fixtures/fmfw-public-excerpt.v3.jsonl');
    const { header, messages } = await loadRecording(file);
    sets.push({ label: 'ETHUSDT recorded', source: file, header, messages });
  }
  if (wanted('BTCUSDT synthetic')) sets.push(syntheticBtc());
  return sets;
}

function syntheticBtc(): BookDataSet {
  const market = new SyntheticMarket({ seed: SYNTHETIC_SEED, symbols: ['BTCUSDT'] });
  const messages: RecordedMessage[] = [];
  for (const frame of market.frames({ start: 1_704_067_200_000, durationMs: SYNTHETIC_MS })) {
    // Through text, as a socket delivers it: the parsed objects are JSON.parse's, not the simulator's.
    const text = JSON.stringify(frame.msg);
    messages.push({ t: frame.t, src: frame.src, text, msg: JSON.parse(text) });
  }
  return {
    label: 'BTCUSDT synthetic',
    source: `synthetic market, seed ${SYNTHETIC_SEED}, ${SYNTHETIC_MS / 60_000} min`,
    header: market.header(),
    messages,
  };
}
