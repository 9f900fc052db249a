/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;',
};

/**
 * JSON safe to place inside a `<script type="application/json">` element: `<`, `>` and `&` become
 * `\u003c`-style escapes, so no `</script>` or `<!--` can end the element early whatever the data
 * (strategy params are user text), and the line separators U+2028/U+2029 are escaped too.
 * `JSON.parse` of the element's text gives back the value unchanged.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Library source placed inside a `<script>` element: any `</script` it might contain is split so the
 * element cannot close early (in JS strings, regular expressions and comments `<\/` means the same).
 */
export function scriptText(source: string): string {
  return source.replace(/<\/(script)/gi, '<\\/$1');
}
