import { parseArgs } from 'node:util';
import { Recorder } from '../../backtest/recording/recorder.js';
import type { RecordingHeader } from '../../backtest/recording/recording-format.js';
import { RestClient } from '../exchange/rest/rest-client.js';
import { RestTransport } from '../exchange/rest/rest-transport.js';
import { parsePublicChannel } from '../exchange/ws/public-channel.js';
import { PublicSession } from '../exchange/ws/public-session.js';
import { ValidationError } from '../model/errors.js';
import type { SymbolInfo } from '../model/resources/symbol.js';
import { LiveClock } from '../time/clock.js';
import type { CliCommand } from './command.js';

/**
 * `tradeloop record`: subscribes through the public stream of an API v3 exchange (the real one or
 * the sandbox) and writes a recording, rotating files by size or time, until the duration ends or
 * SIGINT/SIGTERM.
 */
export const recordCommand: CliCommand = {
  name: 'record',
  usage: 'record --ws-base-url URL [--base-url URL] --symbols A,B --channels C,D --out FILE.jsonl.gz [--rotate-mb N] [--rotate-minutes N] [--seconds N] [--venue TEXT] [--note TEXT]',
  summary: 'record public market data to a recording file',
  async run(args) {
    const { values } = parseArgs({
      args: [...args],
      options: {
        'ws-base-url': { type: 'string' },
        'base-url': { type: 'string' },
        symbols: { type: 'string' },
        channels: { type: 'string', default: 'orderbook/full,trades' },
        out: { type: 'string' },
        'rotate-mb': { type: 'string' },
        'rotate-minutes': { type: 'string' },
        seconds: { type: 'string' },
        venue: { type: 'string' },
        note: { type: 'string' },
      },
      strict: true,
    });
    const wsBaseUrl = required(values['ws-base-url'], '--ws-base-url');
    const out = required(values.out, '--out');
    const symbols = list(required(values.symbols, '--symbols'), '--symbols');
    const channels = list(values.channels, '--channels');
    for (const ch of channels) parsePublicChannel(ch);
    const rotateBytes = values['rotate-mb'] === undefined ? undefined : Math.round(positive(values['rotate-mb'], '--rotate-mb') * 1024 * 1024);
    const rotateMs = values['rotate-minutes'] === undefined ? undefined : positive(values['rotate-minutes'], '--rotate-minutes') * 60_000;
    const seconds = values.seconds === undefined ? undefined : positive(values.seconds, '--seconds');

    const header: RecordingHeader = {
      format: 'tradeloop.recording',
      version: 1,
      venue: values.venue ?? new URL(wsBaseUrl).host,
      symbols: values['base-url'] ? await fetchSymbols(values['base-url'], symbols) : {},
      note: `${values.note ? `${values.note}; ` : ''}recorded by tradeloop record: ${channels.join(', ')}`,
    };
    const session = PublicSession.create({ url: `${wsBaseUrl.replace(/\/+$/, '')}/api/3/ws/public`, clock: new LiveClock() });
    const recorder = new Recorder({ session, out, header, channels, symbols, rotateBytes, rotateMs });
    const stopped = new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
      if (seconds !== undefined) setTimeout(resolve, seconds * 1000).unref();
    });
    await recorder.start();
    console.log(`recording ${channels.join(', ')} of ${symbols.join(', ')} to ${out}`);
    await stopped;
    await recorder.stop();
    await session.close();
    console.log(`${recorder.stats.frames} frames, ${recorder.stats.reconnects} reconnects, files: ${recorder.paths.join(', ')}`);
    return 0;
  },
};

async function fetchSymbols(baseUrl: string, symbols: readonly string[]): Promise<Record<string, SymbolInfo>> {
  const transport = new RestTransport({ baseUrl });
  try {
    return await new RestClient(transport).marketData.getSymbols({ symbols: [...symbols] });
  } finally {
    await transport.close();
  }
}

function required(value: string | undefined, field: string): string {
  if (value === undefined || value === '') throw new ValidationError(field, 'is required');
  return value;
}

function list(text: string, field: string): string[] {
  const items = text.split(',').map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) throw new ValidationError(field, 'must name at least one item');
  return items;
}

function positive(text: string, field: string): number {
  const n = Number(text);
  if (!(n > 0) || !Number.isFinite(n)) throw new ValidationError(field, 'must be a positive number', text);
  return n;
}
