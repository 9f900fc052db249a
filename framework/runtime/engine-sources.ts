import { Subscription, throwError, type Observable } from 'rxjs';
import type { RuntimeEvent } from './event-queue.js';

/** One of the engine's inputs: subscribes with a consumer of its events and a consumer of its error. */
export type EventSource = (deliver: (event: RuntimeEvent) => void, fail: (error: unknown) => void) => Subscription;

/** A stream whose values become runtime events (`undefined`: not for strategies, skipped). */
export function eventSource<T>(source: Observable<T>, toEvent: (value: T) => RuntimeEvent | undefined): EventSource {
  return (deliver, fail) => source.subscribe({
    next: (value) => {
      const event = toEvent(value);
      if (event !== undefined) deliver(event);
    },
    error: fail,
  });
}

/**
 * Subscribes to every source in order, handing each event to `deliver`: what
 * `merge(...sources.map((s) => s.pipe(map(toEvent)))).subscribe(deliver)` does, including its
 * error contract (the first error ends every subscription, later sources are not subscribed, and
 * the error is reported as unhandled, as an observer without an error callback reports it), but
 * without the map and merge subscribers between a source and the engine: every market event of a
 * replay passes here.
 */
export function subscribeAll(sources: readonly EventSource[], deliver: (event: RuntimeEvent) => void): Subscription {
  const all = new Subscription();
  const fail = (error: unknown): void => {
    if (all.closed) return;
    all.unsubscribe();
    throwError(() => error).subscribe();
  };
  for (const source of sources) {
    if (all.closed) break;
    all.add(source(deliver, fail));
  }
  return all;
}
