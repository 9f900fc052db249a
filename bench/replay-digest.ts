import { createHash } from 'node:crypto';
import { backtestMarketMaker } from './replay-backtest.js';

/**
 * Prints a digest of a market-maker backtest's results on the recording named by the first
 * argument (fills, orders, equity, prices, balances, resyncs; not the wall time), so two builds can
 * be checked for identical results on any recording.
 */
const recording = process.argv[2];
if (recording === undefined) throw new Error('usage: replay-digest.ts RECORDING');
const result = await backtestMarketMaker(recording);
const { wallMs: _wall, ...meta } = result.meta;
const text = JSON.stringify({ ...result, meta });
console.log(JSON.stringify({ events: result.meta.events, fills: result.fills.length, orders: result.orders.length, wallMs: result.meta.wallMs, sha256: createHash('sha256').update(text).digest('hex') }));
