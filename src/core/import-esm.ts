/**
 * `import()` of an npm package that ships only as ES modules (pdfjs-dist), from code that may run
 * inside the command line's CommonJS bundle (dist/fast/gantry-cli.cjs, docs/startup.md "The command
 * line's bundle"). That bundle is compiled through `vm.Script` so it can use V8's code cache, and a
 * `vm.Script` has no module loader of its own: bin/gantry.js, an ordinary CommonJS file, puts its
 * own `import()` under `IMPORT_ESM` on `globalThis` before it runs the bundle. Everywhere else
 * (the sources run as ES modules, the library build) the plain `import()` below is used.
 *
 * Throws what `import()` throws (`ERR_MODULE_NOT_FOUND`, …).
 */
export const IMPORT_ESM: unique symbol = Symbol.for('gantry.importEsm');

type Importer = (specifier: string) => Promise<unknown>;

export function importEsm<T>(specifier: string): Promise<T> {
  const host = (globalThis as { [IMPORT_ESM]?: Importer })[IMPORT_ESM];
  return (host ? host(specifier) : import(specifier)) as Promise<T>;
}
