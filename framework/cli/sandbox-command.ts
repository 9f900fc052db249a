import { ConstantLatency } from '../../backtest/venue/matching/latency-model.js';
import { parseArgs } from 'node:util';
import { parseBalanceFlags } from '../../backtest/sandbox/balance-flags.js';
import { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../../backtest/sandbox/simulated-venue-factory.js';
import type { MarketSource } from '../../backtest/sandbox/sandbox-config.js';
import { syntheticMarketSource } from '../../backtest/sandbox/synthetic-source.js';
import { ValidationError } from '../model/errors.js';
import type { CliCommand } from './command.js';

/** Spot balances of the `main` account when no `--balance` is given. */
const DEFAULT_SPOT = { USDT: '10000', BTC: '1', ETH: '10' };
const DEFAULT_RECORDING = new URL('../../test/fixtures/fmfw-public-excerpt.v3.jsonl', import.meta.url).pathname;

/**
 * `tradeloop sandbox`: runs the local API v3 server over the simulated venue, replaying a
 * recording or the synthetic market, and prints where to point a bot and which key to use. Runs
 * until SIGINT/SIGTERM, then closes every connection and the listener.
 */
export const sandboxCommand: CliCommand = {
  name: 'sandbox',
  usage: 'sandbox [--recording FILE | --synthetic SEED] [--port N] [--speed X] [--loop] [--seed TEXT] [--balance CUR=AMOUNT ...] [--latency MS] [--now]',
  summary: 'run a local API v3 exchange (REST + WebSocket) over the simulated venue',
  async run(args) {
    const { values } = parseArgs({
      args: [...args],
      options: {
        recording: { type: 'string' },
        synthetic: { type: 'string' },
        port: { type: 'string', default: '0' },
        host: { type: 'string', default: '127.0.0.1' },
        speed: { type: 'string', default: '1' },
        loop: { type: 'boolean', default: false },
        seed: { type: 'string', default: 'sandbox' },
        balance: { type: 'string', multiple: true },
        latency: { type: 'string', default: '0' },
        now: { type: 'boolean', default: false },
      },
      strict: true,
    });
    if (values.recording !== undefined && values.synthetic !== undefined) {
      throw new ValidationError('--synthetic', 'cannot be combined with --recording');
    }
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ValidationError('--port', 'must be an integer in 0..65535', values.port);
    const speed = values.speed === 'max' ? Infinity : Number(values.speed);
    if (!(speed > 0)) throw new ValidationError('--speed', 'must be a positive number or "max"', values.speed);
    const latencyMs = Number(values.latency);
    if (!(latencyMs >= 0) || !Number.isFinite(latencyMs)) throw new ValidationError('--latency', 'must be a non-negative number of ms', values.latency);
    const spot = values.balance === undefined ? DEFAULT_SPOT : parseBalanceFlags(values.balance);
    const server = await SandboxServer.start({
      venue: simulatedVenueFactory(),
      market: marketSource(values.recording, values.synthetic),
      host: values.host,
      port,
      speed,
      loop: values.loop,
      seed: values.seed,
      accounts: [{ id: 'main', spot, wallet: { USDT: '10000' } }],
      latency: latencyMs > 0 ? new ConstantLatency(latencyMs) : undefined,
      shiftToNow: values.now,
    });
    const key = server.apiKeys[0];
    console.log(`base_url:    ${server.baseUrl}`);
    console.log(`ws_base_url: ${server.wsBaseUrl}`);
    // The operator asked for these: the sandbox key is local and derived from --seed.
    if (key) console.log(`api_key:     ${key.apiKey}\nsecret_key:  ${key.secretKey}`);
    console.log('press Ctrl+C to stop');
    const stop = new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await Promise.race([stop, server.done]);
    await server.close();
    console.log(`stopped after ${server.framesServed} market frames`);
    return 0;
  },
};

function marketSource(recording: string | undefined, synthetic: string | undefined): MarketSource {
  if (synthetic === undefined) return { kind: 'recording', path: recording ?? DEFAULT_RECORDING };
  const seed = Number(synthetic);
  if (!Number.isSafeInteger(seed)) throw new ValidationError('--synthetic', 'must be an integer seed', synthetic);
  // The synthetic market starts at the wall clock; the venue's clock starts there too.
  return syntheticMarketSource(seed);
}
