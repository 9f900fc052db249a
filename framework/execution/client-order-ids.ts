import { ValidationError } from '../model/errors.js';
import type { Clock } from '../time/clock.js';

/**
 * Longest id this generator produces. The spec gives no limit; the REST client refuses more than
 * 64 characters and real API v3 clients keep to 32, so 32 is the safe bound.
 */
export const MAX_GENERATED_ID_LENGTH = 32;

const PREFIX = /^[A-Za-z0-9]{1,12}$/;
const DAY_MS = 86_400_000;

/** Where a generator stopped: the UTC trading day (`YYYYMMDD`) and the last counter used that day. */
export interface ClientOrderIdState {
  readonly day: string;
  readonly counter: number;
}

/** The parts of an id this generator made. */
export interface ParsedClientOrderId {
  readonly prefix: string;
  readonly day: string;
  readonly counter: number;
}

/**
 * Makes client_order_ids `{prefix}_{YYYYMMDD}_{counter base 36}`, e.g. `mm1_20240105_1a`. The
 * exchange wants them unique within one UTC trading day including every active order: the day in
 * the id keeps yesterday's still-active orders apart from today's, the counter keeps today's apart,
 * and the per-bot prefix keeps bots sharing an account apart. Restart-safe when given the state the
 * previous run reached (the journal stores it): the counter then goes on from there the same day.
 * Letters, digits and `_` only, so the id is safe in a URL path; the separators keep two prefixes
 * from ever producing the same id.
 */
export class ClientOrderIdGenerator {
  private day: string;
  /** UTC day number of the last `next()`: the day text is only rebuilt when it changes. */
  private dayIndex: number;
  private counter: number;

  constructor(
    readonly prefix: string,
    private readonly clock: Clock,
    resume?: ClientOrderIdState,
  ) {
    if (typeof prefix !== 'string' || !PREFIX.test(prefix)) throw new ValidationError('prefix', 'must be 1-12 letters or digits', prefix);
    const now = clock.now();
    this.day = utcDay(now);
    this.dayIndex = Math.floor(now / DAY_MS);
    this.counter = 0;
    if (resume !== undefined) {
      if (!Number.isSafeInteger(resume.counter) || resume.counter < 0) {
        throw new ValidationError('resume.counter', 'must be a non-negative integer', resume.counter);
      }
      if (resume.day === this.day) this.counter = resume.counter;
    }
  }

  /** The next id; the counter starts again at 1 on a new UTC day. */
  next(): string {
    const now = this.clock.now();
    const index = Math.floor(now / DAY_MS);
    if (index !== this.dayIndex) {
      this.dayIndex = index;
      const today = utcDay(now);
      // A clock that steps back across midnight must not reuse yesterday's counters under today's day.
      if (today > this.day) {
        this.day = today;
        this.counter = 0;
      }
    }
    this.counter += 1;
    const id = `${this.prefix}_${this.day}_${this.counter.toString(36)}`;
    if (id.length > MAX_GENERATED_ID_LENGTH) throw new ValidationError('counter', `leaves the ${MAX_GENERATED_ID_LENGTH}-character id limit`, this.counter);
    return id;
  }

  /** The state to persist so that a restart the same day goes on after the last id given out. */
  state(): ClientOrderIdState {
    return { day: this.day, counter: this.counter };
  }

  /** Whether `clientOrderId` was made by a generator with this prefix (any day). */
  owns(clientOrderId: string): boolean {
    return this.parse(clientOrderId) !== undefined;
  }

  /** The parts of an id made with this prefix; undefined for any other id. */
  parse(clientOrderId: string): ParsedClientOrderId | undefined {
    if (!clientOrderId.startsWith(`${this.prefix}_`)) return undefined;
    const rest = clientOrderId.slice(this.prefix.length + 1);
    const match = /^(\d{8})_([0-9a-z]+)$/.exec(rest);
    if (match === null) return undefined;
    const [, day, counter] = match;
    if (day === undefined || counter === undefined) return undefined;
    return { prefix: this.prefix, day, counter: parseInt(counter, 36) };
  }
}

/** The UTC trading day of `time` (UNIX ms) as `YYYYMMDD`. */
export function utcDay(time: number): string {
  const date = new Date(Math.floor(time / DAY_MS) * DAY_MS);
  const y = date.getUTCFullYear().toString().padStart(4, '0');
  const m = (date.getUTCMonth() + 1).toString().padStart(2, '0');
  const d = date.getUTCDate().toString().padStart(2, '0');
  return `${y}${m}${d}`;
}
