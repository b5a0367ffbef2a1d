/**
 * MCP configuration: sources and precedence, `--mcp-config` (file and JSON), `--strict-mcp-config`,
 * `${VAR}` / `${VAR:-default}` expansion, entry validation, and project-server approval in
 * interactive sessions versus print mode. docs/mcp-client.md "Configuration".
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../testing/tool-harness.js';
import { projectApprovalStore } from '../store/project-approvals.js';
import { expandVariables } from './expand.js';
import { type LoadMcpConfigOptions, loadMcpConfiguration } from './load.js';
import { parseServerEntry } from './parse-entry.js';

let temp: { dir: string; cleanup(): Promise<void> };
let project: string;
let home: string;
beforeEach(async () => {
  temp = await makeTempDir('gantry-mcp-config-');
  project = path.join(temp.dir, 'project');
  home = path.join(temp.dir, 'home');
  mkdirSync(project, { recursive: true });
  mkdirSync(path.join(home, '.gantry'), { recursive: true });
});
afterEach(() => temp.cleanup());

const json = (file: string, value: unknown) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
};
const stdio = (command: string) => ({ command, args: [] });
const load = (extra: Partial<LoadMcpConfigOptions> = {}) =>
  loadMcpConfiguration({ projectRoot: project, home, env: {}, interactive: false, ...extra });
const summary = (c: ReturnType<typeof load>) =>
  c.servers.map((s) => [
    s.name,
    s.scope,
    s.entry.type === 'stdio' ? s.entry.command : s.entry.type === 'sdk' ? 'sdk' : s.entry.url,
  ]);

describe('variable expansion', () => {
  it.each([
    ['${A}', { A: 'x' }, 'x', [], 'set'],
    ['${A:-d}', {}, 'd', [], 'default when unset'],
    ['${A:-d}', { A: '' }, 'd', [], 'default when empty'],
    ['${A}', { A: '' }, '', [], 'empty stays empty'],
    ['${A}', {}, '${A}', ['A'], 'unset without default: left as written, reported'],
    ['$A ${B}x', { A: '1', B: '2' }, '$A 2x', [], 'only the braced form'],
    ['${A:-}', {}, '', [], 'an empty default'],
    ['${A}', { A: '${B}', B: 'no' }, '${B}', [], 'one pass only'],
  ])('%j with %j → %j (%s)', (text, env, value, missing, _why) => {
    expect(expandVariables(text, env)).toEqual({ value, missing });
  });

  it('expands command, args, env, url and headers', () => {
    const env = { BIN: '/usr/bin/srv', TOKEN: 't0k', HOST: 'mcp.example.com' };
    const opts = { file: 'f', env, baseDir: '/' };
    expect(
      parseServerEntry(
        'a',
        { command: '${BIN}', args: ['--token', '${TOKEN}'], env: { K: '${TOKEN}' } },
        opts,
      ).entry,
    ).toEqual({
      type: 'stdio',
      command: '/usr/bin/srv',
      args: ['--token', 't0k'],
      env: { K: 't0k' },
    });
    expect(
      parseServerEntry(
        'b',
        { type: 'http', url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
        opts,
      ).entry,
    ).toEqual({ type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer t0k' } });
  });
});

describe('entry validation', () => {
  const opts = { file: 'f', env: {}, baseDir: '/' };
  it.each([
    [{ url: 'https://x/mcp' }, /needs "type"/, 'a url without a type'],
    [{ command: '' }, /non-empty/, 'an empty command'],
    [{ command: 'x', args: [1] }, /array of strings/, 'args that are not strings'],
    [{ type: 'ws', url: 'ws://x' }, /not supported/, 'websocket'],
    [{ type: 'http', url: 'ftp://x' }, /not an http/, 'a non-http URL'],
    [{ type: 'bogus' }, /unknown transport/, 'an unknown type'],
    [{ command: 'x', timeout: -1 }, /timeout/, 'a negative timeout'],
    ['nope', /must be an object/, 'not an object'],
  ])('%j is rejected (%s)', (raw, message, _why) => {
    const r = parseServerEntry('s', raw, opts);
    expect(r.entry).toBeUndefined();
    expect(r.problems[0]?.message).toMatch(message);
  });
  it('accepts streamable-http as an alias, and keeps timeout and alwaysLoad', () => {
    expect(
      parseServerEntry(
        's',
        { type: 'streamable-http', url: 'http://127.0.0.1:1/mcp', timeout: 5000, alwaysLoad: true },
        opts,
      ).entry,
    ).toEqual({
      type: 'http',
      url: 'http://127.0.0.1:1/mcp',
      headers: {},
      timeoutMs: 5000,
      alwaysLoad: true,
    });
  });
});

describe('sources and precedence', () => {
  it('local > project > user, whole entries; Gantry files over Claude Code files at one level', () => {
    json(path.join(home, '.claude.json'), {
      mcpServers: { a: stdio('claude-user-a'), b: stdio('claude-user-b'), u: stdio('claude-user-u') },
      projects: { [project]: { mcpServers: { a: stdio('claude-local-a') } } },
    });
    json(path.join(home, '.gantry', 'mcp.json'), { mcpServers: { u: stdio('gantry-user-u') } });
    json(path.join(project, '.mcp.json'), { mcpServers: { a: stdio('project-a'), b: stdio('project-b') } });
    expect(summary(load())).toEqual([
      ['a', 'local', 'claude-local-a'],
      ['b', 'project', 'project-b'],
      ['u', 'user', 'gantry-user-u'],
    ]);
  });

  it('mcpServers in settings files count at their file level; --mcp-config over all of them', () => {
    const userSettings = path.join(home, '.gantry', 'settings.json');
    json(userSettings, { mcpServers: { s: stdio('user-settings') } });
    const cfgFile = path.join(temp.dir, 'extra.json');
    json(cfgFile, { mcpServers: { s: stdio('from-file'), f: stdio('file-only') } });
    const c = load({
      settingsFiles: [{ file: userSettings, source: 'userSettings', loaded: true }],
      mcpConfig: [cfgFile, JSON.stringify({ mcpServers: { s: stdio('from-json') } })],
    });
    expect(summary(c)).toEqual([
      ['f', 'dynamic', 'file-only'],
      ['s', 'dynamic', 'from-json'],
    ]);
  });

  it('--strict-mcp-config keeps only --mcp-config servers', () => {
    json(path.join(project, '.mcp.json'), { mcpServers: { p: stdio('project') } });
    json(path.join(home, '.claude.json'), { mcpServers: { u: stdio('user') } });
    const c = load({ strictMcpConfig: true, mcpConfig: ['{"mcpServers":{"d":{"command":"dyn"}}}'] });
    expect(summary(c)).toEqual([['d', 'dynamic', 'dyn']]);
  });

  it('reports broken files and bad entries without stopping', () => {
    writeFileSync(path.join(project, '.mcp.json'), '{ nope');
    const c = load({
      mcpConfig: ['missing.json', '{"mcpServers":{"bad":{"url":"http://x"},"ok":{"command":"ok"}}}'],
    });
    expect(summary(c)).toEqual([['ok', 'dynamic', 'ok']]);
    const messages = c.problems.map((p) => p.message).join('\n');
    expect(messages).toMatch(/\.mcp\.json: not valid JSON/);
    expect(messages).toMatch(/--mcp-config file not found/);
    expect(messages).toMatch(/"bad": an entry with "url" needs "type"/);
  });
});

describe('project servers need approval in interactive sessions', () => {
  beforeEach(() => {
    json(path.join(project, '.mcp.json'), { mcpServers: { gh: stdio('gh-mcp'), db: stdio('db-mcp') } });
  });

  it('print mode uses them without asking; disabledMcpjsonServers still turns one off', () => {
    const local = path.join(project, '.claude', 'settings.local.json');
    json(local, { disabledMcpjsonServers: ['db'] });
    const c = load({ settingsFiles: [{ file: local, source: 'localSettings', loaded: true }] });
    expect(summary(c)).toEqual([['gh', 'project', 'gh-mcp']]);
    expect(c.disabled.map((d) => [d.config.name, d.reason])).toEqual([
      ['db', 'listed in disabledMcpjsonServers'],
    ]);
  });

  it('interactive: pending until approved; the answer is remembered and asked again when the entry changes', () => {
    const approvals = projectApprovalStore(path.join(home, '.gantry'));
    const first = load({ interactive: true, approvals });
    expect(first.servers).toEqual([]);
    expect(first.pendingApproval.map((s) => s.name)).toEqual(['db', 'gh']);
    approvals.set(project, 'gh', first.rawProjectEntries.get('gh'), 'approved');
    approvals.set(project, 'db', first.rawProjectEntries.get('db'), 'rejected');
    const second = load({ interactive: true, approvals });
    expect(summary(second)).toEqual([['gh', 'project', 'gh-mcp']]);
    expect(second.disabled.map((d) => d.config.name)).toEqual(['db']);
    json(path.join(project, '.mcp.json'), {
      mcpServers: { gh: stdio('something-else'), db: stdio('db-mcp') },
    });
    expect(load({ interactive: true, approvals }).pendingApproval.map((s) => s.name)).toEqual(['gh']);
  });

  it('enabledMcpjsonServers approves from user settings, but not from untrusted project settings', () => {
    const user = path.join(home, '.gantry', 'settings.json');
    json(user, { enabledMcpjsonServers: ['gh'] });
    const shared = path.join(project, '.claude', 'settings.json');
    json(shared, { enableAllProjectMcpServers: true });
    const files = [
      { file: shared, source: 'projectSettings' as const, loaded: true },
      { file: user, source: 'userSettings' as const, loaded: true },
    ];
    const untrusted = load({ interactive: true, settingsFiles: files, trusted: false });
    expect(summary(untrusted)).toEqual([['gh', 'project', 'gh-mcp']]);
    expect(untrusted.pendingApproval.map((s) => s.name)).toEqual(['db']);
    expect(untrusted.problems.map((p) => p.message).join()).toMatch(/cannot approve their own MCP servers/);
    const trusted = load({ interactive: true, settingsFiles: files, trusted: true });
    expect(summary(trusted).map((s) => s[0])).toEqual(['db', 'gh']);
  });
});
