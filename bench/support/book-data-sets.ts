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
 * - the same recording with prices x22: BTC's price on the same 0.01 tick, real traffic;
 * - BTCUSDT from the seeded synthetic market: 0.01 tick at ~60,000 USDT, levels about a basis
 *   point (~600 ticks) apart, so a side spans tens of thousands of ticks, as a BTC book does;
 *   one level change per message, mostly.
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
  if (wanted('ETHUSDT recorded, prices x22 (BTC-like)')) {
    const eth = sets[0] ?? (await bookDataSets('ETHUSDT recorded'))[0];
    if (eth !== undefined) sets.push(widened(eth, PRICE_FACTOR));
  }
  if (wanted('BTCUSDT synthetic')) sets.push(syntheticBtc());
  return sets;
}

/**
 * The ETHUSDT recording with every price multiplied by {@link PRICE_FACTOR} (2,684 -> 59,048
 * USDT) on the same 0.01 tick: real depth-diff traffic (batched updates, cancels near the touch, a
 * deep tail) over a book as wide in ticks as a BTC book, levels ~22 times further apart.
 */
const PRICE_FACTOR = 22n;

function widened(set: BookDataSet, factor: bigint): BookDataSet {
  const times = (text: string): string => {
    const dot = text.indexOf('.');
    const decimals = dot < 0 ? 0 : text.length - dot - 1;
    const units = (BigInt(text.replace('.', '')) * factor).toString().padStart(decimals + 1, '0');
    return decimals === 0 ? units : `${units.slice(0, -decimals)}.${units.slice(-decimals)}`;
  };
  const messages = set.messages.map((m): RecordedMessage => {
    const msg = JSON.parse(m.text) as { ch?: string; snapshot?: Record<string, unknown>; update?: Record<string, unknown> };
    for (const entry of Object.values(msg.snapshot ?? msg.update ?? {})) {
      if (msg.ch === 'orderbook/full') {
        const book = entry as { a?: [string, string][]; b?: [string, string][] };
        for (const level of [...(book.a ?? []), ...(book.b ?? [])]) level[0] = times(level[0]);
      } else if (msg.ch === 'trades') {
        for (const trade of entry as { p: string }[]) trade.p = times(trade.p);
      }
    }
    const text = JSON.stringify(msg);
    return { t: m.t, src: m.src, text, msg: JSON.parse(text) };
  });
  return { label: `${set.label}, prices x${factor} (BTC-like)`, source: set.source, header: set.header, messages };
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
