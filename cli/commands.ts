import { backtestCommand } from './backtest-command.js';
import type { CliCommand } from './command.js';
import { demoCommand } from './demo-command.js';
import { importCandlesCommand } from './import-candles-command.js';
import { liveCommand, paperCommand } from './live-command.js';
import { recordCommand } from './record-command.js';
import { sandboxCommand } from './sandbox-command.js';
import { sweepCommand } from './sweep-command.js';

/** Every `tradeloop` sub-command, in the order `help` lists them. */
export const commands: readonly CliCommand[] = [backtestCommand, sweepCommand, paperCommand, liveCommand, demoCommand, sandboxCommand, recordCommand, importCandlesCommand];
