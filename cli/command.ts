import type { Command } from 'commander';

/**
 * A `tradeloop` sub-command's module (listed, with its summary, in commands.ts). `main` creates the
 * commander command named `name`; `define` declares its options, arguments and help examples;
 * `run` gets what commander parsed.
 */
export interface CliCommand<Options extends object = object> {
  readonly name: string;
  /** Declares arguments, options, a longer description and examples on `command`. */
  define(command: Command): void;
  /** Runs the command with its parsed options and positional arguments; resolves to the exit code. */
  run(options: Options, args: readonly string[]): Promise<number>;
}

/** Help text listing examples, for `command.addHelpText('after', ...)`. */
export function examples(...lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}
