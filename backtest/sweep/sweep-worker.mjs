// Worker entry of the sweep pool. Worker threads start without the TypeScript loader of the main
// thread, so this plain module registers tsx first, then loads the TypeScript task.
import { register as registerHooks } from 'node:module';
import { URL, fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
// As in bin/tradeloop.mjs: a TypeScript strategy outside any package loads as an ES module.
registerHooks('../../framework/runtime/typescript-module-hooks.mjs', import.meta.url);
const task = await import('./sweep-worker-task.ts');

export default task.default;
