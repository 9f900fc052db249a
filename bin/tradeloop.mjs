#!/usr/bin/env node
// Runs the compiled command (dist/, built by `npm ci` through `prepare`, or `npm run build`): no
// TypeScript loader at start. Without dist/, or with TRADELOOP_SOURCES=1 (while editing the
// sources), it runs the TypeScript sources through tsx instead.
import { existsSync } from 'node:fs';
import { setTimeout } from 'node:timers';
import { fileURLToPath, URL } from 'node:url';

const compiled = new URL('../dist/cli/main.js', import.meta.url);
let entry;
const runsCompiled = process.env.TRADELOOP_SOURCES !== '1' && existsSync(compiled);
if (runsCompiled) {
  // A strategy written in TypeScript brings the loader in when it is loaded (see the plugin loader).
  globalThis[Symbol.for('tradeloop.typescriptLoader')] = () => import('../framework/register.mjs');
  entry = compiled.href;
} else {
  // TypeScript sources through tsx with the package's tsconfig, and .ts strategies outside any package as ES modules.
  await import('../framework/register.mjs');
  entry = new URL('../cli/main.ts', import.meta.url).href;
}
const { main, reportUncaught, mapStackTracesLazily } = await import(entry);
// Traces name the TypeScript lines (source maps read when a trace is printed, not at start).
if (runsCompiled) mapStackTracesLazily(fileURLToPath(new URL('../dist/', import.meta.url)));
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
