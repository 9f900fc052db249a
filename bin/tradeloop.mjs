#!/usr/bin/env node
// Runs the TypeScript sources directly, so `npx tradeloop` works right after `npm ci` with no build step.
import { setTimeout } from 'node:timers';
// TypeScript sources through tsx with the package's tsconfig, and .ts strategies outside any package as ES modules.
import '../framework/register.mjs';

const { main, reportUncaught } = await import('../cli/main.ts');
// Output piped into a reader that stopped (`tradeloop help | head`) ends the command quietly, as other tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
// An error no command awaited is reported like any other (one line for a user error), then exits.
const fatal = (error) => process.exit(reportUncaught(error));
process.on('uncaughtException', fatal);
process.on('unhandledRejection', fatal);
process.exitCode = await main(process.argv.slice(2));
// A command is over: a socket or timer left open by mistake must not keep the process (and a bot) alive.
setTimeout(() => process.exit(), 3000).unref();
