/**
 * bin/gantry.js picks the V8 flags (and with them the code cache) before the command line's bundle
 * loads, so it keeps its own list of subcommands; this test keeps that list equal to the program's.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { buildProgram } from './program.js';

it("bin/gantry.js's SUBCOMMANDS are exactly the command line's subcommands", () => {
  const bin = readFileSync(fileURLToPath(new URL('../../bin/gantry.js', import.meta.url)), 'utf8');
  const listed = /const SUBCOMMANDS = \[([^\]]*)\]/.exec(bin)?.[1];
  expect(listed).toBeDefined();
  const names = [...(listed as string).matchAll(/'([^']+)'/g)].map((m) => m[1]);
  expect(names.sort()).toEqual(
    buildProgram()
      .commands.map((c) => c.name())
      .sort(),
  );
});
