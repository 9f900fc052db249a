import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Recorder, type RestPoll } from '../backtest/recording/recorder.js';
import { publicGet } from '../framework/exchange/rest/endpoints/endpoint-request.js';
import type { RecordingHeader } from '../backtest/recording/recording-format.js';
import { RestClient } from '../framework/exchange/rest/rest-client.js';
import { RestTransport } from '../framework/exchange/rest/rest-transport.js';
import { parsePublicChannel } from '../framework/exchange/ws/public-channel.js';
import { PublicSession } from '../framework/exchange/ws/public-session.js';
import type { SymbolInfo } from '../framework/model/resources/symbol.js';
import { LiveClock } from '../framework/time/clock.js';
import { checkWritableFile } from './check-writable.js';
import { examples, type CliCommand } from './command.js';
import { commaList, positiveNumber } from './option-parsers.js';
import { stopSignal } from './stop-signal.js';

interface RecordOptions {
  readonly wsBaseUrl: string;
  readonly baseUrl?: string;
  readonly symbols: readonly string[];
  readonly channels: readonly string[];
  readonly out: string;
  readonly rotateMb?: number;
  readonly rotateMinutes?: number;
  readonly seconds?: number;
  readonly connectTimeout: number;
  readonly venue?: string;
  readonly note?: string;
}

/**
 * `tradeloop record`: subscribes through the public stream of an API v3 exchange (the real one or
 * the sandbox) and writes a recording, rotating files by size or time, until the duration ends or
 * SIGINT/SIGTERM. When the first connection or a subscription fails (the socket redials until
 * `--connect-timeout`), it closes everything and exits 1 with the reason.
 */
export const recordCommand: CliCommand<RecordOptions> = {
  name: 'record',
  define(command) {
    command
      .description('Subscribe to the public WebSocket stream of an API v3 exchange (or the sandbox) and write every frame to a gzip recording, rotating files by size or time, until --seconds end or SIGINT/SIGTERM.')
      .requiredOption('--ws-base-url <url>', 'WebSocket base URL, e.g. wss://api.example.com')
      .option('--base-url <url>', 'REST base URL, to store the symbols\' tick and lot sizes in the header')
      .requiredOption('--symbols <list>', 'comma-separated symbols', commaList)
      .option('--channels <list>', 'comma-separated public channels', commaList, ['orderbook/full', 'trades'])
      .requiredOption('--out <file>', 'recording file (.jsonl.gz)')
      .option('--rotate-mb <n>', 'start a new file after this many MiB', positiveNumber)
      .option('--rotate-minutes <n>', 'start a new file after this many minutes', positiveNumber)
      .option('--seconds <n>', 'stop after this many seconds', positiveNumber)
      .option('--connect-timeout <seconds>', 'give up when not connected and subscribed after this long', positiveNumber, 10)
      .option('--venue <text>', 'venue name in the header (default: the URL\'s host)')
      .option('--note <text>', 'note in the header')
      .addHelpText('after', examples(
        'tradeloop record --ws-base-url ws://127.0.0.1:8080 --symbols BTCUSDT,ETHUSDT --out data/day1.jsonl.gz --seconds 3600',
        'tradeloop record --ws-base-url wss://api.example.com --base-url https://api.example.com --symbols BTCUSDT --out btc.jsonl.gz --rotate-minutes 60',
      ));
  },
  async run(values) {
    const { wsBaseUrl, out, symbols, channels, seconds } = values;
    for (const ch of channels) parsePublicChannel(ch);
    checkWritableFile(out, '--out');
    mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
    const rotateBytes = values.rotateMb === undefined ? undefined : Math.round(values.rotateMb * 1024 * 1024);
    const rotateMs = values.rotateMinutes === undefined ? undefined : values.rotateMinutes * 60_000;
    const connectTimeoutMs = values.connectTimeout * 1000;

    const header: RecordingHeader = {
      format: 'tradeloop.recording',
      version: 1,
      venue: values.venue ?? new URL(wsBaseUrl).host,
      symbols: values.baseUrl ? await fetchSymbols(values.baseUrl, symbols) : {},
      note: `${values.note ? `${values.note}; ` : ''}recorded by tradeloop record: ${channels.join(', ')}`,
    };
    const session = PublicSession.create({ url: `${wsBaseUrl.replace(/\/+$/, '')}/api/3/ws/public`, clock: new LiveClock(), requestTimeoutMs: connectTimeoutMs });
    const contracts = Object.entries(header.symbols).filter(([, info]) => info.type === 'futures').map(([symbol]) => symbol);
    const infoTransport = values.baseUrl !== undefined && contracts.length > 0 ? new RestTransport({ baseUrl: values.baseUrl }) : undefined;
    // Futures contracts' marks and funding come from REST only: polled every second into the recording.
    const restPolls = infoTransport === undefined ? [] : [futuresInfoPoll(infoTransport, contracts)];
    const recorder = new Recorder({ session, out, header, channels, symbols, rotateBytes, rotateMs, connectTimeoutMs, restPolls });
    const stop = stopSignal();
    const duration = seconds === undefined ? [] : [new Promise<void>((resolve) => setTimeout(resolve, seconds * 1000).unref())];
    console.log(`connecting to ${wsBaseUrl}`);
    let failure: unknown;
    try {
      // A stop request while still connecting ends the run too: the start is not awaited alone.
      const started = await Promise.race([recorder.start().then(() => true), stop.stopped.then(() => false)]);
      if (started) {
        console.log(`recording ${channels.join(', ')} of ${symbols.join(', ')} to ${out}`);
        await Promise.race([stop.stopped, ...duration]);
      }
    } catch (error) {
      failure = error;
    }
    stop.dispose();
    // Closing the session ends its redialing; then the file is flushed and closed.
    await session.close();
    await recorder.stop().catch((error: unknown) => (failure ??= error));
    await infoTransport?.close();
    if (failure !== undefined) {
      // A recording that never got a frame is only a header: do not leave it to be mistaken for data.
      if (recorder.stats.frames === 0) for (const file of recorder.paths) rmSync(file, { force: true });
      throw failure;
    }
    const failedPolls = recorder.stats.restFailures > 0 ? `, ${recorder.stats.restFailures} futures info polls failed` : '';
    console.log(`${recorder.stats.frames} frames, ${recorder.stats.reconnects} reconnects${failedPolls}, files: ${recorder.paths.join(', ')}`);
    return 0;
  },
};

/** Polls `GET /api/3/public/futures/info` for the recorded contracts every second. */
function futuresInfoPoll(transport: RestTransport, contracts: readonly string[]): RestPoll {
  const symbols = contracts.join(',');
  return {
    path: `/api/3/public/futures/info?symbols=${symbols}`, everyMs: 1000,
    fetch: async () => ({ status: 200, body: await transport.execute(publicGet('/public/futures/info', (body) => body, { symbols })) }),
  };
}

async function fetchSymbols(baseUrl: string, symbols: readonly string[]): Promise<Record<string, SymbolInfo>> {
  const transport = new RestTransport({ baseUrl });
  try {
    return await new RestClient(transport).marketData.getSymbols({ symbols: [...symbols] });
  } finally {
    await transport.close();
  }
}
