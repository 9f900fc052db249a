import { createHash } from 'node:crypto';
import path from 'node:path';
import { backtestMarketMaker } from './replay-backtest.js';

/**
 * Prints a digest of a market-maker backtest's results on the recording named by the first
 * argument (fills, orders, equity, prices, balances, resyncs; not the wall time), so two builds can
 * be checked for identical results on any recording. The recording is named by its file name only,
 * so the digest does not depend on where the file is or how its path was written.
 */
const recording = process.argv[2];
if (recording === undefined) throw new Error('usage: replay-digest.ts RECORDING');
const result = await backtestMarketMaker(recording);
const { wallMs: _wall, ...meta } = result.meta;
const named = (text: string, from: string): string => text.split(JSON.stringify(from).slice(1, -1)).join(path.basename(recording));
const text = named(named(JSON.stringify({ ...result, meta }), path.resolve(recording)), recording);
console.log(JSON.stringify({ events: result.meta.events, fills: result.fills.length, orders: result.orders.length, wallMs: result.meta.wallMs, sha256: createHash('sha256').update(text).digest('hex') }));
