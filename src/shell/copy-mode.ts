/**
 * How a syntax tree is copied out of wasm (parser-copy.ts): `fast` reads the cursor functions of the
 * grammar's wasm module directly, `portable` uses web-tree-sitter's public cursor. Kept apart from
 * parser-copy.ts so the package's public declarations never reference web-tree-sitter's types.
 */
export type CopyMode = 'fast' | 'portable';
