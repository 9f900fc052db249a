import { Bench } from 'tinybench';
import { Instrument } from '../framework/model/instrument.js';
import { parseSymbolInfo, type SymbolInfo } from '../framework/model/resources/symbol.js';
import { ReplayedSymbolMarket } from '../backtest/venue/matching/replayed-symbol-market.js';
import { SimulatedVenue } from '../backtest/venue/simulated-venue.js';
import { bookDataSets } from './support/book-data-sets.js';
import { benchClock, runBudget } from './support/bench-clock.js';
import { collectGarbage } from './support/collect-garbage.js';
import type { RecordedMessage } from './support/recording-messages.js';
import { printTable } from './support/report.js';

const SYMBOL = 'ETHUSDT';

/**
 * What futures accounting costs the venue per market frame, on the recorded ETHUSDT depth diffs
 * and trades: (a) the symbol as spot, no order (the floor); (b) the same frames with the symbol as
 * a perpetual and no position (the futures hooks idle: funding and expiry times, the liquidation
 * gate); (c) the perpetual with a 1 ETH long open at leverage 10 (every frame values the position
 * at the mark and checks maintenance, in Decimal). Each iteration replays every public frame into a
 * fresh venue (built untimed).
 */
export async function run(): Promise<void> {
  const [set] = await bookDataSets('ETHUSDT recorded');
  if (set === undefined) {
    console.log('skipped: no ETHUSDT recording');
    return;
  }
  const frames = set.messages.filter((m) => m.src === 'ws/public');
  const spotInfo = set.header.symbols[SYMBOL] ?? parseSymbolInfo({
    type: 'spot', base_currency: 'ETH', quote_currency: 'USDT', quantity_increment: '0.0001', tick_size: '0.01', take_rate: '0.0025', make_rate: '0.001', fee_currency: 'USDT',
  });
  const perpInfo: SymbolInfo = { ...spotInfo, type: 'futures', contract_type: 'perpetual', expiry: null, base_currency: null, margin_trading: true, max_initial_leverage: parseSymbolInfo({ ...wire(spotInfo), max_initial_leverage: '20' }).max_initial_leverage };
  const spot = new Instrument(SYMBOL, spotInfo);
  const perp = new Instrument(SYMBOL, perpInfo);
  let venue: SimulatedVenue | undefined;
  const build = (instrument: Instrument, withPosition: boolean): void => {
    venue = new SimulatedVenue([instrument], { a: { spot: { USDT: '1000000' }, futures: { USDT: '1000000' } } }, (i) => new ReplayedSymbolMarket(i), () => {}, Math.floor(frames[0]?.t ?? 0));
    if (!withPosition) return;
    // Replay up to the first two-sided book, then open the position.
    let i = 0;
    for (; i < frames.length && venue.futures.markPrice(SYMBOL) === undefined; i++) {
      const frame = frames[i] as RecordedMessage;
      venue.onMarketFrame(frame.msg, frame.t);
    }
    venue.futures.setLeverage('a', SYMBOL, '10');
    venue.placeOrder('a', { symbol: SYMBOL, side: 'buy', type: 'market', quantity: '1' });
  };
  const replay = (): void => {
    const v = venue as SimulatedVenue;
    for (const frame of frames) if (frame.t >= v.now()) v.onMarketFrame(frame.msg, frame.t);
  };
  const clock = benchClock();
  const budget = runBudget(3000, () => build(perp, true), replay, 5);
  const bench = new Bench({ ...budget, ...(clock.now === undefined ? {} : { now: clock.now }) });
  bench.add('(a) spot symbol, no order', replay, { beforeAll: collectGarbage, beforeEach: () => { build(spot, false); } });
  bench.add('(b) perpetual, no position', replay, { beforeAll: collectGarbage, beforeEach: () => { build(perp, false); } });
  bench.add('(c) perpetual, 1 ETH long open', replay, { beforeAll: collectGarbage, beforeEach: () => { build(perp, true); } });
  await bench.run();
  console.log(`\nfutures venue: ${set.label} (${set.source}), ${frames.length.toLocaleString('en-US')} public frames; timed in ${clock.name}`);
  printTable('per frame', bench.tasks.map((task) => {
    const result = task.result;
    if (result.state !== 'completed') throw new Error(`${task.name}: ${result.state}`);
    return { task: task.name, 'frames per second': (frames.length * 1000) / result.latency.mean, 'ns each': (result.latency.mean * 1e6) / frames.length, 'rme %': result.latency.rme };
  }));
}

/** A Symbol's fields as wire text, to build a variant through the parser. */
function wire(info: SymbolInfo): Record<string, unknown> {
  return Object.fromEntries(Object.entries(info).map(([k, v]) => [k, v !== null && typeof v === 'object' ? String(v) : v]));
}
