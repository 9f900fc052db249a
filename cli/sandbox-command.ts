import { addedLatency } from '../backtest/venue/matching/recorded-latency.js';
import { queueModelNamed } from '../backtest/venue/matching/queue-model.js';
import { parseLatencySpec } from '../framework/config/latency-spec.js';
import { existsSync } from 'node:fs';
import { InvalidArgumentError, Option } from 'commander';
import { parseBalanceFlags } from '../backtest/sandbox/balance-flags.js';
import { FAULT_PRESETS, faultsFrom } from '../backtest/sandbox/fault-presets.js';
import { readYamlFile } from '../framework/config/read-yaml-file.js';
import { SandboxServer } from '../backtest/sandbox/sandbox-server.js';
import { simulatedVenueFactory } from '../backtest/sandbox/simulated-venue-factory.js';
import type { MarketSource } from '../backtest/sandbox/sandbox-config.js';
import { syntheticMarketSource } from '../backtest/sandbox/synthetic-source.js';
import { ValidationError } from '../framework/model/errors.js';
import { examples, type CliCommand } from './command.js';
import { collect, port } from './option-parsers.js';
import { stopSignal } from './stop-signal.js';
import { packageFile } from '../framework/package-root.js';

/** Spot balances of the `main` account when no `--balance` is given. */
const DEFAULT_SPOT = { USDT: '10000', BTC: '1', ETH: '10' };
const DEFAULT_RECORDING = packageFile('test', 'fixtures', 'fmfw-public-excerpt.v3.jsonl');

interface SandboxOptions {
  readonly recording?: string;
  readonly synthetic?: string;
  readonly port: number;
  readonly host: string;
  readonly speed: number;
  readonly loop: boolean;
  readonly seed: string;
  readonly balance?: readonly string[];
  readonly latency: string;
  readonly queueModel: string;
  readonly now: boolean;
  readonly faults?: string;
}

/**
 * `tradeloop sandbox`: runs the local API v3 server over the simulated venue, replaying a
 * recording or the synthetic market, and prints where to point a bot and which key to use. Runs
 * until SIGINT/SIGTERM, then closes every connection and the listener.
 */
export const sandboxCommand: CliCommand<SandboxOptions> = {
  name: 'sandbox',
  define(command) {
    command
      .description('Run a local Exchange API v3 server (REST + WebSocket) over the simulated venue, replaying a recording or a synthetic market; prints the URLs and the API key to point a bot at. Runs until SIGINT/SIGTERM.')
      .option('--recording <file>', 'recording to replay (default: a shipped excerpt)')
      .addOption(new Option('--synthetic <seed>', 'replay a synthetic market with this integer seed').conflicts('recording'))
      .option('--port <n>', 'port to listen on (0: any free port)', port, 0)
      .option('--host <address>', 'address to listen on', '127.0.0.1')
      .option('--speed <x>', 'replay speed factor, or "max"', speedOption, 1)
      .option('--loop', 'start the recording over when it ends', false)
      .option('--seed <text>', 'seed of the API keys and the venue', 'sandbox')
      .option('--balance <cur=amount>', 'spot balance of the main account (repeatable; default USDT=10000 BTC=1 ETH=10)', collect)
      .option('--queue-model <name>', 'queue position of resting orders: trades-only, proportional, log or power:N', 'trades-only')
      .option('--latency <spec>', 'added order latency: ms (0.25), in/back ms (0.2/0.35) or a recorded *.jsonl', '0')
      .option('--now', 'serve the recording as if it were happening now (every time shifted by wall clock at start - first frame time)', false)
      .option('--faults <spec>', `inject seeded faults (drops, book gaps, late/duplicated/swapped reports, 429s, 5xx, slow answers): none, ${Object.keys(FAULT_PRESETS).join(', ')} or a faults file (*.yaml)`)
      .addHelpText('after', examples(
        'tradeloop sandbox --port 8080',
        'tradeloop sandbox --synthetic 42 --balance USDT=5000 --balance BTC=0.5 --latency 20',
        'tradeloop sandbox --recording capture.jsonl.gz --speed max --now',
        'tradeloop sandbox --synthetic 7 --loop --faults soak --seed 7',
      ));
  },
  async run(values) {
    const { port, speed } = values;
    const latency = parseLatencySpec(values.latency, '--latency', process.cwd());
    if (values.recording !== undefined && !existsSync(values.recording)) throw new ValidationError('--recording', 'no such file', values.recording);
    const spot = values.balance === undefined ? DEFAULT_SPOT : parseBalanceFlags(values.balance);
    const server = await SandboxServer.start({
      venue: simulatedVenueFactory(0, {}, queueModelNamed(values.queueModel, '--queue-model')),
      market: marketSource(values.recording, values.synthetic),
      host: values.host,
      port,
      speed,
      loop: values.loop,
      seed: values.seed,
      accounts: [{ id: 'main', spot, wallet: { USDT: '10000' } }],
      latency: addedLatency(latency, 1),
      shiftToNow: values.now,
      faults: values.faults === undefined ? undefined : faultsFrom(values.faults, '--faults', (file) => readYamlFile(file, '--faults')),
    });
    const key = server.apiKeys[0];
    console.log(`base_url:    ${server.baseUrl}`);
    console.log(`ws_base_url: ${server.wsBaseUrl}`);
    // The operator asked for these: the sandbox key is local and derived from --seed.
    if (key) console.log(`api_key:     ${key.apiKey}\nsecret_key:  ${key.secretKey}`);
    console.log('press Ctrl+C to stop');
    const stop = stopSignal();
    try {
      await Promise.race([stop.stopped, server.done]);
    } finally {
      stop.dispose();
      await server.close();
    }
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

function speedOption(text: string): number {
  if (text === 'max') return Number.POSITIVE_INFINITY;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || !(n > 0)) throw new InvalidArgumentError('must be a positive number or "max"');
  return n;
}
