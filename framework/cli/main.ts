import { readFileSync } from 'node:fs';
import { TradeloopError } from '../model/errors.js';
import { commands } from './commands.js';

/**
 * Entry of the `tradeloop` command. Returns the process exit code instead of exiting, so that it
 * can run inside tests and so that pending output is flushed by a natural exit.
 */
export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    printHelp();
    return 0;
  }
  if (name === 'version' || name === '--version' || name === '-v') {
    console.log(readVersion());
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    console.error(`tradeloop: unknown command "${name}"\n`);
    printHelp();
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof TradeloopError) {
      console.error(`tradeloop ${name}: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

function printHelp(): void {
  const width = Math.max(...commands.map((c) => c.usage.length));
  console.log('tradeloop: algorithmic trading on Exchange API v3\n\nUsage: tradeloop <command> [options]\n\nCommands:');
  for (const c of commands) console.log(`  ${c.usage.padEnd(width)}  ${c.summary}`);
  console.log(`  ${'help'.padEnd(width)}  this text\n  ${'version'.padEnd(width)}  print the version`);
}

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
