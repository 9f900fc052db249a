/** A `tradeloop` sub-command. */
export interface CliCommand {
  readonly name: string;
  /** One-line usage, e.g. `demo [--speed N]`. */
  readonly usage: string;
  readonly summary: string;
  /** Runs the command with the arguments after its name; resolves to the exit code. */
  run(args: readonly string[]): Promise<number>;
}
