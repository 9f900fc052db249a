// Worker entry of the sweep pool. Worker threads start without the TypeScript loader of the main
// thread, so this plain module registers tsx first, then loads the TypeScript task.
import { URL, fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
const task = await import('./sweep-worker-task.ts');

export default task.default;
