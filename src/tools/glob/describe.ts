/**
 * What a Glob call would do, for the permission engine: a read of the directory it really searches
 * — `path` (default: the cwd) joined with the pattern's leading segments that have no glob syntax,
 * so `../../etc/*` and `/etc/*` are reads of `/etc`, not of the cwd (docs/tool-traits.md
 * "Describers"). The same plan drives the search itself (`planGlobSearch`).
 */
import { type DescribeWorld, type FullToolDescriberEntry, textField } from '../../core/call-describer.js';
import { unknownEffect } from '../../core/effects.js';
import type { CallDescription } from '../../core/permission-types.js';
import { describeSearchRoot, searchRootAsNamedIn, searchRootIn } from '../ripgrep/search-paths.js';
import { planGlob } from './glob-pattern.js';

/** Where a Glob call searches. */
export interface GlobSearchPlan {
  /** The directory searched, symlinks resolved. */
  root: string;
  /** The same directory as named by `path` and the pattern, symlinks not resolved. */
  named: string;
  /** The pattern left to match under `root`. */
  relPattern: string;
}

/** Plans a Glob search of `pattern` under `path` (absent: the cwd) in `world`. */
export function planGlobSearch(
  pattern: string,
  pathInput: string | undefined,
  world: DescribeWorld,
): GlobSearchPlan {
  const root = searchRootIn(pathInput, world);
  const plan = planGlob(pattern, root, world.home);
  const base = plan.base === root ? root : world.resolver.realpath(plan.base);
  const named = planGlob(pattern, searchRootAsNamedIn(pathInput, world), world.home).base;
  return { root: base, named, relPattern: plan.relPattern };
}

function describeGlob(input: Readonly<Record<string, unknown>>, world: DescribeWorld): CallDescription {
  const pattern = input.pattern;
  const pathInput = Object.hasOwn(input, 'path') ? input.path : undefined;
  if (typeof pattern !== 'string' || (pathInput !== undefined && typeof pathInput !== 'string'))
    return {
      ruleContents: [],
      effects: [
        unknownEffect('read', String(pathInput ?? pattern), 'tool-input', 'pattern or path is not a string'),
      ],
      findings: [],
      readOnly: false,
      summary: 'Glob (invalid input)',
    };
  const { root, named } = planGlobSearch(pattern, pathInput, world);
  return describeSearchRoot('Glob', pattern, root, named);
}

export const globDescriber: FullToolDescriberEntry = {
  name: 'Glob',
  describe: describeGlob,
  isReadOnly: () => true,
  toAutoClassifierInput: (input) => {
    const p = textField(input, 'path');
    return `${textField(input, 'pattern')}${p ? ` in ${p}` : ''}`;
  },
};
