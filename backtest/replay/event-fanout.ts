import { Observable, type Subscriber } from 'rxjs';

/**
 * A hot stream for the replay's per-frame events: what a Subject does with `next` and `complete`
 * (each value goes to the subscribers of the moment, in subscription order; one that subscribes
 * while a value is delivered starts with the next value; after `complete`, a new subscriber is
 * completed at once), delivered with a plain loop. A Subject's `next` allocates an error-context
 * closure and an iterator, with its results, per value, and a replay sends a value or two per frame.
 */
export class EventFanout<T> {
  /** The stream to subscribe to. */
  readonly events: Observable<T>;
  /** Copied on every change, so a delivery loop is never disturbed by one it causes. */
  private subscribers: readonly Subscriber<T>[] = [];
  private completed = false;

  constructor() {
    this.events = new Observable<T>((subscriber) => {
      if (this.completed) {
        subscriber.complete();
        return undefined;
      }
      this.subscribers = [...this.subscribers, subscriber];
      return () => {
        this.subscribers = this.subscribers.filter((s) => s !== subscriber);
      };
    });
  }

  /** Delivers `value` to every subscriber. */
  next(value: T): void {
    const subscribers = this.subscribers;
    for (let i = 0; i < subscribers.length; i++) (subscribers[i] as Subscriber<T>).next(value);
  }

  /** Completes every subscriber, and any later one. */
  complete(): void {
    if (this.completed) return;
    this.completed = true;
    const subscribers = this.subscribers;
    this.subscribers = [];
    for (const subscriber of subscribers) subscriber.complete();
  }
}
