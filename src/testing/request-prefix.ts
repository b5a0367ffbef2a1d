/**
 * Comparing model requests as the API reads them (tests and benches): the `tools`, `system` and
 * `messages` of a Messages API body serialised in that order, and the first character where two
 * such serialisations differ.
 */

/** `JSON.stringify({tools, system, messages})` of a Messages API body. */
export function wirePrefix(body: any): string {
  return JSON.stringify({ tools: body.tools, system: body.system, messages: body.messages });
}

/** Index of the first differing character; -1 when equal; the shorter length when one is a prefix. */
export function firstDifference(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}
