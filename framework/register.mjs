// `node --import tradeloop/register program.ts`: runs a program of your own on tradeloop's TypeScript
// sources (there is no build step), as the tradeloop command runs itself.
import { register as registerHooks } from 'node:module';
import { URL, fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// The package's compiler settings (parameter decorators of the live composition root), whatever the
// working directory and wherever the package is installed.
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
// Registered after tsx, so it sees tsx's answer first: TypeScript files outside any package load as ES modules.
registerHooks('./runtime/typescript-module-hooks.mjs', import.meta.url);
