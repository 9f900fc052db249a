import { packageFile } from '../../framework/package-root.js';

/**
 * The recording shipped with the package (backtest/samples): 8 minutes of the sandbox's synthetic
 * BTCUSDT/ETHUSDT market. What a backtest or a sweep replays when told of no recording.
 */
export const SAMPLE_RECORDING: string = packageFile('backtest', 'samples', 'synthetic-btc-eth.v3.jsonl.gz');
