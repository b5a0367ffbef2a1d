/**
 * The shared set-up of the WebFetch test files: one local HTTP server on 127.0.0.1 and one temp
 * directory per file (started in `beforeAll`, closed in `afterAll`), tools built by `makeTool`
 * disposed and recorded requests cleared after each test. Host names other than 127.0.0.1 reach
 * the server through an injected resolver (`tableResolver`): `docs.test`, `a.test`, `b.test` and
 * `evil.test` all resolve to it, and the default tool may reach the first three over plain http.
 * Call `useWebFetchWorld()` at the top level of a test file.
 */
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { ModelClient } from '../core/model-client.js';
import { createSessionServices } from '../runtime/index.js';
import { tableResolver } from '../tools/web-fetch/network-guard.js';
import { createWebFetchTool, type WebFetchToolOptions } from '../tools/web-fetch/web-fetch.tool.js';
import { type LocalWebServer, startLocalWebServer } from './local-web-server.js';
import { makeTempDir, makeToolContext } from './tool-harness.js';

/** A file of `src/tools/web-fetch/fixtures/`. */
export const webFetchFixture = (name: string): string =>
  readFileSync(new URL(`../tools/web-fetch/fixtures/${name}`, import.meta.url), 'utf8');

/** Names the local server answers for (all 127.0.0.1). */
export const LOCAL_NAMES = ['docs.test', 'a.test', 'b.test', 'evil.test'];

export function useWebFetchWorld() {
  let server: LocalWebServer | undefined;
  let temp: { dir: string; cleanup(): Promise<void> } | undefined;
  const tools: { dispose(): Promise<void> }[] = [];
  const resolver = tableResolver(Object.fromEntries(LOCAL_NAMES.map((n) => [n, '127.0.0.1'])));

  beforeAll(async () => {
    server = await startLocalWebServer();
    temp = await makeTempDir('gantry-webfetch-');
  });
  afterAll(async () => {
    await server?.close();
    await temp?.cleanup();
  });
  afterEach(async () => {
    for (const t of tools.splice(0)) await t.dispose();
    if (server) server.requests.length = 0;
  });

  const world = {
    /** The local server (available from `beforeAll` on). */
    get server(): LocalWebServer {
      if (!server) throw new Error('useWebFetchWorld: the server starts in beforeAll');
      return server;
    },
    resolver,
    /** A tool that may reach docs.test, a.test and b.test over plain http (and nothing else private). */
    makeTool(options: WebFetchToolOptions = {}) {
      const tool = createWebFetchTool({
        resolver,
        env: {},
        settings: {
          allowPrivateHosts: ['docs.test', 'a.test', 'b.test'],
          allowHttpHosts: ['docs.test', 'a.test', 'b.test'],
        },
        ...options,
      });
      tools.push(tool);
      return tool;
    },
    /** A tool context in the temp directory, with `modelClient` in the session services when given. */
    context(modelClient?: ModelClient) {
      return makeToolContext({
        cwd: (temp as { dir: string }).dir,
        services: createSessionServices(modelClient ? { modelClient } : {}),
      });
    },
    /** `http://<host>:<port><path>` on the local server. */
    url: (path: string, host = 'docs.test') => world.server.url(path, host),
  };
  return world;
}
