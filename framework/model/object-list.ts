/**
 * Empty arrays created with the element representation they will end up with.
 *
 * V8 creates `[]` as an array of small integers and changes its representation the first time
 * something else goes in (an object, or a number that is not a small integer). Code already
 * optimised for the small-integer form is then thrown away ("not a Smi", "wrong map"), and it
 * happens again in every run whose arrays are created that way: V8 only remembers the change for
 * a literal when the array is still freshly allocated, which a list filled long after it was
 * created (a history, the fills of a rare crossing) never is. Starting in the final form makes
 * every array of a kind look the same from the first run on.
 */

/** An empty array that holds objects (or any values) from the start. */
export function objectList<T>(): T[] {
  const list: T[] = [undefined as T];
  list.pop();
  return list;
}

/**
 * An empty array that holds numbers as doubles from the start, so a value that is not a small
 * integer (a large tick count, NaN) never changes its representation.
 */
export function numberList(): number[] {
  const list = [0.5];
  list.pop();
  return list;
}
