/**
 * Property: a sub-agent's permissions only narrow its parent's. Over generated parent policies
 * (mode, allow/ask/deny rules) and child specs (requested mode), for generated calls (Bash
 * commands, reads and writes inside and outside the project), the child's decision through
 * `narrowedDecider` and the real permission engine is never more permissive than the parent's:
 * no call is allowed in the child that the parent would not allow, and nothing the parent denies
 * is asked or allowed in the child.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PERMISSION_MODES, type PermissionMode } from '../../core/index.js';
import {
  bash,
  engineWith,
  fileCall,
  HOME,
  PROJECT,
  request,
  ro,
  sub,
} from '../../permissions/test-support.js';
import { narrowedDecider, narrowPermissionMode } from '../narrow.js';

const RANK = { allow: 0, ask: 1, deny: 2 } as const;

const RULES = [
  'Bash',
  'Bash(git status)',
  'Bash(npm test)',
  'Bash(rm -rf build)',
  'Bash(git push:*)',
  'Read',
  `Read(${PROJECT}/**)`,
  `Read(${HOME}/.ssh/**)`,
  'Edit',
  `Edit(${PROJECT}/src/**)`,
  `Write(${PROJECT}/**)`,
  'Write',
];

const CALLS = [
  () => request('Bash', bash([ro('git status')])),
  () => request('Bash', bash([sub('npm test')])),
  () => request('Bash', bash([sub('rm -rf build')])),
  () => request('Bash', bash([sub('git push origin main')])),
  () => request('Bash', bash([sub('curl http://example.invalid')])),
  () => request('Read', fileCall('read', `${PROJECT}/src/a.ts`)),
  () => request('Read', fileCall('read', `${HOME}/.ssh/id_rsa`)),
  () => request('Read', fileCall('read', '/etc/hosts')),
  () => request('Edit', fileCall('write', `${PROJECT}/src/a.ts`)),
  () => request('Write', fileCall('write', `${PROJECT}/notes.md`)),
  () => request('Write', fileCall('write', `${HOME}/.bashrc`)),
  () => request('Write', fileCall('write', '/tmp/out.txt')),
];

const modeArb = fc.constantFrom<PermissionMode>(...PERMISSION_MODES);
const rulesArb = fc.subarray(RULES, { maxLength: 5 });

describe('a child policy only narrows its parent', () => {
  it('narrowPermissionMode never returns a mode wider than the parent', () => {
    const order: Record<PermissionMode, number> = {
      plan: 0,
      dontAsk: 0,
      default: 1,
      acceptEdits: 2,
      auto: 3,
      bypassPermissions: 4,
    };
    fc.assert(
      fc.property(modeArb, fc.option(modeArb, { nil: undefined }), (parent, requested) => {
        const m = narrowPermissionMode(parent, requested);
        expect(m === parent || order[m] < order[parent]).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('no call is allowed (or merely asked) in the child that the parent would not allow (or ask)', async () => {
    await fc.assert(
      fc.asyncProperty(
        modeArb,
        modeArb,
        rulesArb,
        rulesArb,
        rulesArb,
        fc.integer({ min: 0, max: CALLS.length - 1 }),
        async (parentMode, childMode, allow, ask, deny, callIndex) => {
          const rules = { allow, ask, deny };
          const childEngine = engineWith(rules);
          const parentEngine = engineWith(rules);
          const base = CALLS[callIndex]!();
          const asParent = await parentEngine.decide({ ...base, mode: parentMode });
          const decide = narrowedDecider(
            (r) => childEngine.decide(r),
            () => parentMode,
          );
          const asChild = await decide({ ...base, mode: childMode });
          const context = `parent ${parentMode} child ${childMode} ${base.toolName} ${base.description.summary} rules ${JSON.stringify(rules)}`;
          if (asChild.behavior === 'allow') expect(asParent.behavior, context).toBe('allow');
          expect(RANK[asChild.behavior], context).toBeGreaterThanOrEqual(RANK[asParent.behavior]);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('the property is not vacuous: without narrowing, a bypassPermissions child of a default parent runs what the parent asks about', async () => {
    const engine = engineWith({});
    const call = request('Bash', bash([sub('npm test')]));
    expect((await engine.decide({ ...call, mode: 'default' })).behavior).toBe('ask');
    expect((await engine.decide({ ...call, mode: 'bypassPermissions' })).behavior).toBe('allow');
    const decide = narrowedDecider(
      (r) => engine.decide(r),
      () => 'default',
    );
    expect((await decide({ ...call, mode: 'bypassPermissions' })).behavior).toBe('ask');
  });
});
