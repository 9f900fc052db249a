// Worker entry of the sweep pool. Worker threads start without the TypeScript loader of the main
// thread, so this plain module registers it first (tsx with the package's tsconfig, a TypeScript
// strategy outside any package as an ES module), then loads the TypeScript task.
import '../../framework/register.mjs';

const task = await import('./sweep-worker-task.ts');

export default task.default;
