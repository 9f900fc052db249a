import type { CliCommand } from './command.js';

/**
 * A `tradeloop` sub-command as `help` lists it; its module (and everything the command needs) is
 * loaded only when the command runs or its own help is asked, so `tradeloop help` and a command's
 * start-up pay for that one command alone.
 */
export interface CommandEntry {
  readonly name: string;
  /** One short line for `tradeloop help` (fits 80 columns beside the name). */
  readonly summary: string;
  load(): Promise<CliCommand>;
}

/** Every `tradeloop` sub-command, in the order `help` lists them. */
export const commands: readonly CommandEntry[] = [
  { name: 'backtest', summary: 'replay recordings through a bot on the simulated venue; HTML report', load: async () => (await import('./backtest-command.js')).backtestCommand as CliCommand },
  { name: 'sweep', summary: 'backtest a parameter grid on all cores and rank the results', load: async () => (await import('./sweep-command.js')).sweepCommand as CliCommand },
  { name: 'paper', summary: 'run a bot on a local sandbox exchange (no account needed)', load: async () => (await import('./live-command.js')).paperCommand as CliCommand },
  { name: 'live', summary: 'run a bot against the exchange in its config (keys from env/file)', load: async () => (await import('./live-command.js')).liveCommand as CliCommand },
  { name: 'compare', summary: 'compare two runs\' output folders fill by fill; causes of divergence', load: async () => (await import('./compare-command.js')).compareCommand as CliCommand },
  { name: 'demo', summary: 'replay a recorded market over a local stream, print the books', load: async () => (await import('./demo-command.js')).demoCommand as CliCommand },
  { name: 'sandbox', summary: 'run a local API v3 exchange (REST + WebSocket) for bots', load: async () => (await import('./sandbox-command.js')).sandboxCommand as CliCommand },
  { name: 'record', summary: 'record public market data to a recording file', load: async () => (await import('./record-command.js')).recordCommand as CliCommand },
  { name: 'import-candles', summary: 'turn an OHLCV CSV into a candle recording', load: async () => (await import('./import-candles-command.js')).importCandlesCommand as CliCommand },
];
