import { ValidationError } from './errors.js';

/**
 * Several validation errors of one input, reported together so a user fixes a file in one pass.
 * It is a ValidationError whose `field`, `rule` and `value` are the first error's (code that
 * handles one error keeps working); `errors` holds them all and `source` names the input (a file
 * path) when known. The message lists every error, one per line.
 */
export class ValidationErrors extends ValidationError {
  constructor(
    readonly errors: readonly ValidationError[],
    readonly source?: string,
  ) {
    const first = errors[0];
    if (first === undefined) throw new RangeError('ValidationErrors needs at least one error');
    super(first.field, first.rule, first.value);
    const where = source === undefined ? '' : `${source}: `;
    this.message = errors.length === 1
      ? `${where}${first.message}`
      : `${where}${errors.length} errors\n${errors.map((e) => `  - ${e.message}`).join('\n')}`;
  }

  /** Throws nothing for no error, the error itself for one without a source, else a ValidationErrors. */
  static throwIfAny(errors: readonly ValidationError[], source?: string): void {
    if (errors.length === 0) return;
    if (errors.length === 1 && source === undefined) throw errors[0]!;
    throw new ValidationErrors(errors.flatMap((e) => (e instanceof ValidationErrors ? e.errors : [e])), source);
  }
}

/**
 * The candidate closest to `word` by edit distance, when close enough to be a likely typo (at most
 * a third of the word's length, at least 1; case and `_`/`-` ignored). For "did you mean" hints.
 */
export function closestMatch(word: string, candidates: Iterable<string>): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[_-]/g, '');
  const target = norm(word);
  const limit = Math.max(1, Math.floor(target.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const d = editDistance(target, norm(candidate));
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance with adjacent transpositions counted as one edit. */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
