import type { IntentExecutor } from '../../framework/execution/execution-adapter.js';
import type { Intent } from '../../framework/model/intent.js';

/** Submits an intent and settles once every answer of its commands has been applied. */
export function executed(executor: IntentExecutor, intent: Intent): Promise<void> {
  return new Promise((resolve) => executor.submit(intent, resolve));
}
