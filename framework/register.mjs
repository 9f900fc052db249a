// `node --import tradeloop/register program.ts`: runs a TypeScript program of your own (its imports
// of tradeloop load the compiled package), as the tradeloop command loads a TypeScript strategy.
import { register as registerHooks } from 'node:module';
import { URL, fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// The package's compiler settings (parameter decorators of the live composition root), whatever the
// working directory and wherever the package is installed.
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
// Registered after tsx, so it sees tsx's answer first: TypeScript files outside any package load as ES modules.
registerHooks('./runtime/typescript-module-hooks.mjs', import.meta.url);
