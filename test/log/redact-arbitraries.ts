import fc from 'fast-check';

/** Secrets as real keys look: letters and digits, long enough to be searched for. */
export const secretArb = fc.stringMatching(/^[A-Za-z0-9]{10,40}$/);

/** A JSON-like value with `secret` embedded somewhere: in a text, as a key, or inside an Error. */
export function withSecretArb(secret: string): fc.Arbitrary<unknown> {
  const text = fc.tuple(fc.string(), fc.string()).map(([a, b]) => `${a}${secret}${b}`);
  const leaf = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
  const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('tree'), { maxLength: 4 }),
      fc.dictionary(fc.string(), tie('tree'), { maxKeys: 4 }),
    ),
  }));
  const carrier = fc.oneof(
    text,
    text.map((t) => ({ [t]: 1 })),
    text.map((t) => new Error(t)),
    text.map((t) => ({ nested: [{ deeper: { t } }] })),
  );
  // Put the carrier at a random place of a random tree.
  return fc.tuple(tree, carrier, fc.nat()).map(([t, c, n]) => embed(t, c, n));
}

function embed(tree: unknown, carrier: unknown, n: number): unknown {
  if (Array.isArray(tree) && tree.length > 0) {
    const copy = [...tree];
    copy[n % copy.length] = embed(copy[n % copy.length], carrier, Math.floor(n / 2));
    return copy;
  }
  if (typeof tree === 'object' && tree !== null && Object.keys(tree).length > 0 && n % 3 !== 0) {
    const keys = Object.keys(tree);
    const key = keys[n % keys.length] as string;
    return { ...tree, [key]: embed((tree as Record<string, unknown>)[key], carrier, Math.floor(n / 2)) };
  }
  return [tree, carrier];
}
