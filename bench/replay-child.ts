import { backtestMarketMaker } from './replay-backtest.js';

/**
 * Child process of the replay benchmark: backtests the market maker on the recording named by the
 * first argument and prints one JSON line with its events, fills and this process's peak RSS
 * (KiB), so the figure is the backtest's own and not the benchmark runner's. Run with
 * `--expose-gc`, it also reports the heap still used after a full collection with the result
 * alive: what the run retains, as opposed to garbage the collector had not yet reclaimed.
 */
const recording = process.argv[2];
if (recording === undefined) throw new Error('usage: replay-child.ts RECORDING');
const result = await backtestMarketMaker(recording);
const maxRssKiB = process.resourceUsage().maxRSS;
const collect = (globalThis as { gc?: () => void }).gc;
collect?.();
const retainedBytes = collect === undefined ? undefined : process.memoryUsage().heapUsed;
console.log(JSON.stringify({ events: result.meta.events, fills: result.fills.length, orders: result.orders.length, wallMs: result.meta.wallMs, maxRssKiB, retainedBytes }));
