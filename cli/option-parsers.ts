import { InvalidArgumentError } from 'commander';

/**
 * Readers of option values for commander: each returns the value or throws InvalidArgumentError,
 * which commander prints as one line naming the option (`option '--seed <n>' argument 'x' is
 * invalid. must be ...`), so a bad number never reaches a command.
 */

/** An integer (a safe one) at least `min`. */
export function integerAtLeast(min: number): (text: string) => number {
  return (text) => {
    const n = Number(text);
    if (text.trim() === '' || !Number.isSafeInteger(n) || n < min) {
      throw new InvalidArgumentError(min === 0 ? 'must be a non-negative integer' : `must be an integer >= ${min}`);
    }
    return n;
  };
}

/** A finite number greater than 0. */
export function positiveNumber(text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || !(n > 0)) throw new InvalidArgumentError('must be a positive number');
  return n;
}

/** A TCP port; 0 asks the system for a free one. */
export function port(text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be an integer in 0..65535');
  return n;
}

/** A comma-separated list with at least one item (`BTCUSDT,ETHUSDT`). */
export function commaList(text: string): string[] {
  const items = text.split(',').map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) throw new InvalidArgumentError('must name at least one item (comma-separated)');
  return items;
}

/** Collects a repeatable option's values in order. */
export function collect(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** A plain positive decimal text (`0.01`, `5`): kept as text, as money never goes through a float. */
export function positiveDecimal(text: string): string {
  if (!/^(?=.*[1-9])(\d+\.?\d*|\.\d+)$/.test(text)) throw new InvalidArgumentError('must be a positive decimal number');
  return text;
}

/** A plain decimal text, negative allowed (a maker rebate is a negative fee rate); kept as text. */
export function decimal(text: string): string {
  if (!/^-?(\d+\.?\d*|\.\d+)$/.test(text)) throw new InvalidArgumentError('must be a decimal number');
  return text;
}
