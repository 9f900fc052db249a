import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import type { CliCommand } from './command.js';
import { commands, type CommandEntry } from './commands.js';
import { reportError } from './report-error.js';
import { packageFile } from '../framework/package-root.js';

export { mapStackTracesLazily } from './source-mapped-stacks.js';

const HELP_WIDTH = 80;
const DEBUG_FLAG = '--debug';

/**
 * Entry of the `tradeloop` command. Returns the process exit code instead of exiting, so that it
 * can run inside tests and so that pending output is flushed by a natural exit. Exit codes: 0 done,
 * 1 the command failed (one line, or a stack for a bug), 2 bad usage (unknown command or option,
 * missing or bad option value).
 */
export async function main(argv: readonly string[]): Promise<number> {
  // --debug is global and may stand anywhere before a `--`, so it is taken out before commander sees it.
  const end = argv.indexOf('--');
  const head = end === -1 ? argv : argv.slice(0, end);
  const debug = head.includes(DEBUG_FLAG);
  const args = [...head.filter((a) => a !== DEBUG_FLAG), ...(end === -1 ? [] : argv.slice(end))];
  // Only the command asked for is loaded (its module and what it imports); `help` loads none.
  const wanted = commandNamed(args[0] === 'help' ? args[1] : args[0]);
  const loaded = wanted === undefined ? undefined : { entry: wanted, command: await wanted.load() };
  const program = buildProgram(loaded?.command);
  if (args.length === 0) {
    program.outputHelp();
    return 0;
  }
  if (args[0] === 'version') args[0] = '--version';
  let exitCode = 0;
  current = { command: '', debug };
  if (loaded !== undefined) {
    const { command } = loaded;
    program.commands.find((c) => c.name() === command.name)!.action(async (...params: unknown[]) => {
      const self = params.at(-1) as Command;
      current = { command: command.name, debug };
      exitCode = await command.run(self.opts(), self.args);
    });
  }
  try {
    await program.parseAsync(args, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return usageExitCode(error);
    return reportError(error, current.command, debug);
  }
}

function commandNamed(name: string | undefined): CommandEntry | undefined {
  return name === undefined ? undefined : commands.find((c) => c.name === name);
}

/** The command running, and --debug, for errors that escape it (see {@link reportUncaught}). */
let current = { command: '', debug: false };

/**
 * Reports an error no command awaited (an emitter's error event, a rejected promise nobody
 * held) the way `main` reports a command's errors, and returns the exit code. For the process's
 * `uncaughtException` and `unhandledRejection` handlers.
 */
export function reportUncaught(error: unknown): number {
  return reportError(error, current.command, current.debug);
}

/**
 * The program with every sub-command listed (no actions) and `loaded`'s options and arguments
 * declared: usage errors exit through exceptions.
 */
export function buildProgram(loaded?: CliCommand): Command {
  const program = new Command('tradeloop')
    .description('Algorithmic trading on Exchange API v3: backtests, paper and live bots.')
    .usage('<command> [options]')
    .version(readVersion(), '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help of a command')
    .option(DEBUG_FLAG, 'on errors, print stack traces and causes')
    .exitOverride()
    .configureHelp({ helpWidth: HELP_WIDTH, sortSubcommands: false, subcommandTerm: (command) => command.name() })
    .showSuggestionAfterError(true)
    .addHelpText('after', '\nRun `tradeloop <command> --help` for its options and examples.\n');
  for (const c of commands) {
    const command = program.command(c.name).summary(c.summary).description(c.summary).helpOption('-h, --help', 'show help');
    // One line naming the option: commander's own message, under the command's name.
    command.configureOutput({ outputError: (text, write) => write(`tradeloop ${c.name}: ${oneLine(text)}`) });
    if (loaded?.name === c.name) loaded.define(command);
  }
  program.configureOutput({ outputError: (text, write) => write(`tradeloop: ${oneLine(text)}`) });
  return program;
}

/** Commander's error text as one line: no `error: ` prefix, its "Did you mean" hint on the same line. */
function oneLine(text: string): string {
  return `${text.replace(/^error: /, '').replace(/\n\(Did you mean (.*)\)/, ' (did you mean $1)').trimEnd()}\n`;
}

function usageExitCode(error: CommanderError): number {
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return 0;
  return 2;
}

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string };
  return pkg.version;
}
