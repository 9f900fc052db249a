#!/usr/bin/env node
// Runs the TypeScript sources directly, so `npx tradeloop` works right after `npm ci` with no build step.
import { register as registerHooks } from 'node:module';
import { setTimeout } from 'node:timers';
import { URL, fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// The project's tsconfig (decorators for the composition root), whatever the working directory.
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
// Registered after tsx, so it sees tsx's answer first: TypeScript strategies outside any package load as ES modules.
registerHooks('../framework/runtime/typescript-module-hooks.mjs', import.meta.url);
const { main, reportUncaught } = await import('../cli/main.ts');
// An error no command awaited is reported like any other (one line for a user error), then exits.
const fatal = (error) => process.exit(reportUncaught(error));
process.on('uncaughtException', fatal);
process.on('unhandledRejection', fatal);
process.exitCode = await main(process.argv.slice(2));
// A command is over: a socket or timer left open by mistake must not keep the process (and a bot) alive.
setTimeout(() => process.exit(), 3000).unref();
