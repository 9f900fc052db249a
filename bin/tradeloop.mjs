#!/usr/bin/env node
// Runs the compiled command (dist/, built by `npm ci` through `prepare`, or `npm run build`): no
// TypeScript loader at start. Without dist/, or with TRADELOOP_SOURCES=1 (while editing the
// sources), it runs the TypeScript sources through tsx instead.
import { existsSync } from 'node:fs';
import module from 'node:module';
import { setImmediate, setTimeout } from 'node:timers';
import { fileURLToPath, URL } from 'node:url';

// Node 22.1 and later keep V8's compiled code of the modules its loader loads on disk (in the
// temporary folder, or NODE_COMPILE_CACHE): this file, the TypeScript loader. The compiled code's
// bundle has a cache of its own, on every Node (see dist/bundle-loader.mjs).
module.enableCompileCache?.();
const compiled = new URL('../dist/bundle-loader.mjs', import.meta.url);
const runsCompiled = process.env.TRADELOOP_SOURCES !== '1' && existsSync(compiled);
let cli;
let bundle;
if (runsCompiled) {
  // A strategy written in TypeScript brings the loader in when it is loaded (see the plugin loader).
  globalThis[Symbol.for('tradeloop.typescriptLoader')] = () => import('../framework/register.mjs');
  const { tradeloopBundle } = await import(compiled.href);
  bundle = tradeloopBundle();
  cli = await bundle.load('cli/main.ts');
} else {
  // TypeScript sources through tsx with the package's tsconfig, and .ts strategies outside any package as ES modules.
  await import('../framework/register.mjs');
  cli = await import(new URL('../cli/main.ts', import.meta.url).href);
}
const { main, reportUncaught, mapStackTracesLazily } = cli;
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
bundle?.saveCodeCache();
// A command is over: it awaited its own files, logs and sockets. Left to end by itself, node would
// first wait for V8's background compiler to finish jobs whose code will never run (10-15 ms after a
// backtest); and a socket or timer left open by mistake must not keep the process (and a bot) alive.
// So the process exits once what the command printed has left stdout and stderr (3 s at most).
setTimeout(() => process.exit(), 3000).unref();
setImmediate(exitWhenPrinted);

function exitWhenPrinted() {
  const pending = [process.stdout, process.stderr].find((stream) => stream.writableLength > 0);
  if (pending === undefined) process.exit();
  pending.once('drain', exitWhenPrinted);
}
