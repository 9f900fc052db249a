// Entry of the thread that reads and decodes a recording beside the replay. Worker threads start
// without the TypeScript loader of the main thread, so this plain module registers it first (when
// the sources run; the compiled twin of this file loads the compiled task), then starts the task.
import '../../framework/register.mjs';

await import('./line-tape-worker-task.ts');
