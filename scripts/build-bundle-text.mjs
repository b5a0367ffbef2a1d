// Rewrites of the text esbuild writes for the start-up bundles (scripts/build.mjs), each checked so
// that a change of esbuild's output fails the build instead of being skipped: docs/startup.md says
// what each one saves and why the program stays the same.
import { transform } from 'esbuild';

/**
 * `bytes` (a bundle esbuild wrote) with the non-ASCII characters of its comments written as `\u{…}`.
 * esbuild escapes them everywhere else (its default `charset`), so the file becomes plain ASCII, which
 * src/cli/code-cache.ts reads as Latin-1: cheaper than decoding UTF-8, and V8 keeps a one-byte
 * source (a source with one non-ASCII character is stored two bytes per character). The build fails
 * if the text outside comments changed (the two programs printed without comments differ).
 */
export async function asciiOnly(bytes, name) {
  const text = Buffer.from(bytes).toString('utf8');
  if (!/[^\x00-\x7f]/u.test(text)) return bytes;
  const ascii = text.replace(/[^\x00-\x7f]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
  const program = async (t) => (await transform(t, { loader: 'js', minifyWhitespace: true })).code;
  if ((await program(text)) !== (await program(ascii)))
    throw new Error(`${name}: a non-ASCII character outside a comment`);
  return Buffer.from(ascii, 'latin1');
}

/** esbuild's helper that wraps a CommonJS module for an ES module importer, as it writes it. */
const TO_ESM = /var (__toESM\d*) ?= ?\(mod, ?isNodeMode, ?target\) ?=>/;
/** How far into a bundle its helpers start (after the banner and `"use strict"`). */
const HELPERS_WITHIN = 4096;

/**
 * `bytes` (a CommonJS bundle esbuild wrote) with its top-level `__toESM` helper returning one object
 * per CommonJS module (and mode) instead of a new one per importing module. esbuild calls it once
 * for every module of the bundle that imports a CommonJS module (28 times for `node:path` in the
 * in-process check), and each call copies every property of that module as a getter: a start paid
 * for about 40 such copies. The objects are only read (an import is read-only), each getter reads
 * the module's property when used, so a shared one reads the same values. Helpers of a package that
 * was itself bundled by esbuild sit in its own scope, further down, and are left as they are.
 * A bundle without the helper is returned unchanged; one whose helper is not at the top fails the build.
 */
export function shareEsmInterop(bytes, name) {
  const text = Buffer.from(bytes).toString('latin1');
  const m = TO_ESM.exec(text);
  if (!m) return bytes;
  if (m.index > HELPERS_WITHIN) throw new Error(`${name}: esbuild's ${m[1]} helper is not at the top`);
  const h = m[1];
  const shared = [
    `function ${h}(mod, isNodeMode) {`,
    `  if (mod === null || (typeof mod !== 'object' && typeof mod !== 'function')) return ${h}$fresh(mod, isNodeMode);`,
    `  const made = isNodeMode ? (${h}$node ??= new WeakMap()) : (${h}$plain ??= new WeakMap());`,
    `  let ns = made.get(mod);`,
    `  if (ns === undefined) made.set(mod, (ns = ${h}$fresh(mod, isNodeMode)));`,
    `  return ns;`,
    `}`,
    `var ${h}$node, ${h}$plain;`,
  ].join('\n');
  const out = `${text.slice(0, m.index)}${shared}\nvar ${h}$fresh = (mod, isNodeMode, target) =>${text.slice(m.index + m[0].length)}`;
  return Buffer.from(out, 'latin1');
}
