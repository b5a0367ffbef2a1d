/**
 * WebFetch and WebSearch under the real permission engine: `WebFetch(domain:…)` rules matched on
 * the punycode host whatever script the rule or the URL uses, the pre-approved documentation hosts
 * (allowed without asking, overridden by deny and ask rules), and WebSearch's bare rule. Real
 * local HTTP server; names reach it through an injected resolver.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AnyTool, contentText, type ToolUseBlock } from '../../src/core/index.js';
import { createPermissionEngine, loadSettings } from '../../src/permissions/index.js';
import { createToolRuntime } from '../../src/runtime/index.js';
import { type LocalWebServer, page, startLocalWebServer } from '../../src/testing/local-web-server.js';
import { tableResolver } from '../../src/tools/web-fetch/network-guard.js';
import { createWebFetchTool } from '../../src/tools/web-fetch/web-fetch.tool.js';
import { createWebSearchTool } from '../../src/tools/web-search/web-search.tool.js';

let server: LocalWebServer;
const roots: string[] = [];
const disposers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  server = await startLocalWebServer({ '/page': page('<h1>Reached</h1>') });
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
  for (const d of disposers.splice(0)) await d();
  server.requests.length = 0;
});

const LOCAL = ['docs.test', 'xn--bcher-kva.test', 'other.test'];

async function session(rules: { allow?: string[]; deny?: string[]; ask?: string[] }) {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-web-int-')));
  roots.push(root);
  const project = path.join(root, 'home', 'project');
  mkdirSync(project, { recursive: true });
  const settingsFile = path.join(root, 'settings.json');
  writeFileSync(settingsFile, JSON.stringify({ permissions: { allow: [], deny: [], ask: [], ...rules } }));
  const settings = loadSettings({
    projectRoot: project,
    home: path.join(root, 'home'),
    managedFiles: [],
    settingsFiles: [settingsFile],
  });
  const engine = createPermissionEngine({ settings });
  const webFetch = createWebFetchTool({
    env: {},
    resolver: tableResolver({
      ...Object.fromEntries(LOCAL.map((h) => [h, '127.0.0.1'])),
      'docs.python.org': '127.0.0.1',
    }),
    settings: { allowPrivateHosts: LOCAL, allowHttpHosts: LOCAL },
  });
  disposers.push(() => webFetch.dispose());
  const tools: AnyTool[] = [webFetch, createWebSearchTool({ env: { SEARXNG_URL: server.url('') } })];
  const runtime = createToolRuntime({
    tools,
    cwd: project,
    sessionDir: path.join(root, 'session'),
    decide: engine.decider,
    canUseTool: async (_tool, _input, decision) => ({
      behavior: 'deny',
      message: `asked: ${decision.reason.message}`,
    }),
  });
  let n = 0;
  return async (name: string, input: Record<string, unknown>) => {
    const block: ToolUseBlock = { type: 'tool_use', id: `toolu_web_${++n}`, name, input };
    const r = (await runtime.runToolsToCompletion([block])).results[0];
    return { isError: r?.is_error === true, text: r ? contentText(r.content) : '' };
  };
}

const at = (host: string) => `http://${host}:${server.port}/page`;

describe('WebFetch domain rules under the engine', () => {
  it('an allow rule for the host lets the fetch run; another host asks', async () => {
    const run = await session({ allow: ['WebFetch(domain:docs.test)'] });
    expect(await run('WebFetch', { url: at('docs.test'), prompt: 'x' })).toMatchObject({
      isError: false,
      text: expect.stringContaining('# Reached'),
    });
    const other = await run('WebFetch', { url: at('other.test'), prompt: 'x' });
    expect(other.text).toMatch(/refused: asked: /);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['bücher.test', 'a Unicode URL'],
    ['BÜCHER.test.', 'upper case and a trailing dot'],
    ['xn--bcher-kva.test', 'the punycode form'],
  ])('a Unicode deny rule stops %s (%s) before any request', async (host) => {
    const run = await session({ deny: ['WebFetch(domain:bücher.test)'], allow: ['WebFetch'] });
    const r = await run('WebFetch', { url: at(host), prompt: 'x' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/denied|deny/i);
    expect(r.text).toContain('WebFetch(domain:bücher.test)');
    expect(server.requests).toHaveLength(0);
  });

  it('a punycode deny rule stops the Unicode URL too; an unrelated host still runs', async () => {
    const run = await session({ deny: ['WebFetch(domain:xn--bcher-kva.test)'], allow: ['WebFetch'] });
    expect((await run('WebFetch', { url: at('bücher.test'), prompt: 'x' })).isError).toBe(true);
    expect((await run('WebFetch', { url: at('docs.test'), prompt: 'x' })).isError).toBe(false);
  });
});

describe('pre-approved documentation hosts', () => {
  it('a pre-approved host runs without asking (here it then meets the address guard: the name resolves to 127.0.0.1)', async () => {
    const run = await session({});
    const r = await run('WebFetch', { url: 'https://docs.python.org/3/library/json.html', prompt: 'x' });
    expect(r.text).not.toMatch(/asked: /);
    expect(r.text).toContain('The host "docs.python.org" resolves to 127.0.0.1');
  });

  it.each([
    [{ deny: ['WebFetch(domain:docs.python.org)'] }, /deny/i, 'a deny rule'],
    [{ ask: ['WebFetch(domain:*.org)'] }, /refused: asked: /, 'an ask rule'],
  ])('%j overrides the list (%s)', async (rules, expected, _why) => {
    const run = await session(rules);
    const r = await run('WebFetch', { url: 'https://docs.python.org/3/', prompt: 'x' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(expected);
  });
});

describe('WebSearch rules', () => {
  it('asks without a rule and runs with a bare allow rule', async () => {
    server.route('/search', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ results: [{ title: 'Hit', url: 'https://hit.example/', content: 'c' }] }));
    });
    const ask = await session({});
    expect((await ask('WebSearch', { query: 'gantry' })).text).toMatch(/refused: asked: /);
    const allow = await session({ allow: ['WebSearch'] });
    expect((await allow('WebSearch', { query: 'gantry' })).text).toContain('1. Hit');
  });
});
