import { backtestMarketMaker } from './replay-backtest.js';

/**
 * Child process of the replay benchmark: backtests the market maker on the recording named by the
 * first argument and prints one JSON line with its events, fills and this process's peak RSS
 * (KiB), so the figure is the backtest's own and not the benchmark runner's.
 */
const recording = process.argv[2];
if (recording === undefined) throw new Error('usage: replay-child.ts RECORDING');
const result = await backtestMarketMaker(recording);
console.log(JSON.stringify({ events: result.meta.events, fills: result.fills.length, wallMs: result.meta.wallMs, maxRssKiB: process.resourceUsage().maxRSS }));
