// Worker entry of the sweep pool. Worker threads start without the TypeScript loader of the main
// thread, so this plain module registers tsx first, then loads the TypeScript task.
import { register } from 'tsx/esm/api';

register();
const task = await import('./sweep-worker-task.ts');

export default task.default;
