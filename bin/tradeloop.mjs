#!/usr/bin/env node
// Runs the TypeScript sources directly, so `npx tradeloop` works right after `npm ci` with no build step.
import { URL, fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// The project's tsconfig (decorators for the composition root), whatever the working directory.
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { main } = await import('../framework/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
