#!/usr/bin/env node
// Runs the TypeScript sources directly, so `npx tradeloop` works right after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../framework/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
