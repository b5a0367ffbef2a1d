/**
 * The agents room's flagged tools: SendMessage with SEND_MESSAGE or TEAMS, the team tools with
 * TEAMS only, and with the flags off their modules are never even evaluated (a fresh Node process
 * with a loader hook that reports every module it loads).
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../testing/runtime-fixtures.js';
import { REPO_ROOT } from '../testing/shared-data.js';
import { agentFeatureTools } from './feature-tools.js';

const run = promisify(execFile);

describe('agentFeatureTools', () => {
  it.each([
    [{}, [], 'no flag: nothing'],
    [{ SEND_MESSAGE: true }, ['SendMessage'], 'SEND_MESSAGE: SendMessage alone'],
    [{ TEAMS: true }, ['SendMessage', 'TeamCreate', 'TeamDelete', 'ListPeers'], 'TEAMS implies SendMessage'],
  ] as [Record<string, boolean>, string[], string][])('%j → %j (%s)', async (features, names, _reason) => {
    const out = await agentFeatureTools({ features, env: {} });
    expect(out.tools.map((t) => t.name)).toEqual(names);
    expect(out.teammates !== undefined).toBe(features.TEAMS === true);
  });

  describe('a module behind an off flag is not loaded', () => {
    let temp: { dir: string; cleanup(): Promise<void> };
    beforeAll(async () => {
      temp = await makeTempDir();
    });
    afterAll(async () => {
      await temp.cleanup();
    });

    async function loaded(features: Record<string, boolean>): Promise<string[]> {
      const script = path.join(temp.dir, 'probe.mjs');
      await writeFile(
        script,
        [
          "import { register } from 'node:module';",
          `register('data:text/javascript,' + encodeURIComponent("export async function load(url, context, next) { if (url.includes('/agents/messaging/') || url.includes('/agents/teams/')) process.stdout.write('LOADED ' + url + '\\\\n'); return next(url, context); }"));`,
          'const { agentFeatureTools } = await import(process.argv[2]);',
          'const out = await agentFeatureTools({ features: JSON.parse(process.argv[3]), env: {} });',
          "console.log('TOOLS ' + out.tools.map((t) => t.name).join(','));",
        ].join('\n'),
      );
      const entry = pathToFileURL(path.join(REPO_ROOT, 'src/agents/feature-tools.ts')).href;
      const { stdout } = await run(
        process.execPath,
        ['--import', 'tsx', script, entry, JSON.stringify(features)],
        { cwd: REPO_ROOT },
      );
      return stdout
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('LOADED '))
        .map((l) => l.slice(l.indexOf('/src/') + 1));
    }

    it('flags off: nothing of messaging/ or teams/; SEND_MESSAGE: no teams/', async () => {
      expect(await loaded({})).toEqual([]);
      const send = await loaded({ SEND_MESSAGE: true });
      expect(send).toContain('src/agents/messaging/send-message.tool.ts');
      expect(send.filter((f) => f.includes('/teams/'))).toEqual([]);
    });
  });
});
