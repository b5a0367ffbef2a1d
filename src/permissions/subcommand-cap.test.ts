/**
 * Past the shell analysis's sub-command limit (src/shell/analyze.ts `FULL_ANALYSIS_LIMIT`, 256) the
 * remaining sub-commands get no effects and no read-only validation, so neither the destructive
 * floor nor the protected-path step sees them: such a line must ask in every mode, bypassPermissions
 * included (docs/analysis-budget.md: a decision is never `allow` because the analysis stopped early).
 * Found by review7: `ls a; ` × 300 followed by `rm -rf /` was allowed in bypassPermissions.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mapPathResolver } from '../core/paths.js';
import type { PermissionMode } from '../core/permission-types.js';
import { FULL_ANALYSIS_LIMIT } from '../shell/index.js';
import { CORPUS_HOME, CORPUS_PROJECT } from './corpus/evaluate.js';
import { loadBashDescriber } from './corpus/shell-describer.js';
import { createPermissionEngine } from './engine.js';
import { settingsFromRules } from './settings/from-rules.js';
import { request } from './test-support.js';

let describeBash: Awaited<ReturnType<typeof loadBashDescriber>>;
beforeAll(async () => {
  describeBash = await loadBashDescriber();
});

const world = { cwd: CORPUS_PROJECT, home: CORPUS_HOME, resolver: mapPathResolver({}) };

function decide(command: string, mode: PermissionMode) {
  const engine = createPermissionEngine({
    settings: settingsFromRules({ projectRoot: CORPUS_PROJECT, home: CORPUS_HOME }),
    resolver: mapPathResolver({}),
  });
  const description = describeBash(command, world);
  return engine.decideSync(request('Bash', { ...description, summary: command }, { mode }));
}

const padding = 'ls a; '.repeat(FULL_ANALYSIS_LIMIT + 44);

describe('a line past the sub-command limit never becomes allow', () => {
  it.each([
    ['rm -rf /', 'the destructive floor sees only the first 256'],
    ['echo x >> ~/.bashrc', 'a protected-path write the effects never computed'],
    ['git config core.pager "sh -c id"', 'a git config exec'],
    ['ls b', 'nothing dangerous, but the tail was not analysed in full'],
  ])('bypassPermissions: 300 × `ls a;` then %s → not allow (%s)', (tail, _why) => {
    const d = decide(`${padding}${tail}`, 'bypassPermissions');
    expect(d.decision.behavior, d.decision.reason.message).not.toBe('allow');
  });

  it('dontAsk denies it; default asks', () => {
    expect(decide(`${padding}rm -rf /`, 'dontAsk').decision.behavior).toBe('deny');
    expect(decide(`${padding}rm -rf /`, 'default').decision.behavior).toBe('ask');
  });
});
