import { measure } from './tick-to-intent.bench.js';

/**
 * Child process of the tick-to-intent benchmark: one run of the bot, with `keepOrderPathWarmMs`
 * from the first argument (absent: off), so each configuration starts with nothing compiled.
 */
const warm = process.argv[2];
await measure(warm === undefined ? undefined : Number(warm));
