/**
 * WebBrowser in `gantry -p` as a real process (GANTRY_FEATURE_BROWSER=1, the scripted fake model
 * server, Debian's Chromium): a `WebBrowser(domain:127.0.0.1)` allow rule lets the session open a
 * local page (allowed through the settings' `webFetch` allowances), read it, click a button and
 * send a screenshot to the model as an image block; when the session ends the browser is closed
 * (no Chromium process is left, its profile directory is gone). A page of another host is asked
 * for, and refused with nobody to ask.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply, type ScriptEntry } from '../../testing/fake-model-script.js';
import { type LocalWebServer, page, startLocalWebServer } from '../../testing/local-web-server.js';
import {
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
  runGantry,
} from '../../testing/print-fixtures.js';

const PAGE = `<!DOCTYPE html><html><head><title>Lamp</title></head><body>
<h1>Lamp</h1><p id="state">The lamp is off.</p>
<button onclick="document.getElementById('state').textContent = 'The lamp is on.'">Switch on</button>
</body></html>`;

let world: PrintWorld;
let web: LocalWebServer;
let fake: FakeAnthropicServer | undefined;

beforeEach(async () => {
  world = makePrintWorld();
  web = await startLocalWebServer({ '/': page(PAGE) });
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  await web.close();
  world.cleanup();
});

const SETTINGS = JSON.stringify({
  webFetch: { allowPrivateHosts: ['127.0.0.1'], allowHttpHosts: ['127.0.0.1'] },
  permissions: { allow: ['WebBrowser(domain:127.0.0.1)'] },
});

async function run(script: ScriptEntry[], tmp: string) {
  fake = await startFakeAnthropicServer({ apiKey: PRINT_TEST_KEY, script });
  return runGantry(
    ['-p', '--output-format', 'stream-json', '--verbose', '--settings', SETTINGS, 'check the lamp'],
    {
      cwd: world.project,
      env: gantryEnv(world, fake, { ENABLE_TOOL_SEARCH: 'false', GANTRY_FEATURE_BROWSER: '1', TMPDIR: tmp }),
      timeoutMs: 90_000,
    },
  );
}

function toolResults(lines: any[]): any[] {
  return lines
    .filter((l) => l.type === 'user' && Array.isArray(l.message?.content))
    .flatMap((l) => l.message.content.filter((b: any) => b.type === 'tool_result'));
}
const text = (b: any): string =>
  typeof b.content === 'string' ? b.content : b.content.map((c: any) => c.text ?? '').join('');

/** Processes whose command line mentions `dir` (a Chromium left running would). */
function processesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmd.includes(dir)) found.push(`${pid}: ${cmd.replace(/\0/g, ' ').slice(0, 200)}`);
    } catch {
      // The process ended meanwhile.
    }
  }
  return found;
}

describe('gantry -p: WebBrowser', () => {
  it('opens, reads, clicks and screenshots a local page; the browser is gone when the session ends', async () => {
    const tmp = path.join(world.root, 'tmp');
    mkdirSync(tmp);
    const r = await run(
      [
        reply.toolUse('WebBrowser', { action: 'navigate', url: web.url('/') }),
        reply.toolUse('WebBrowser', { action: 'read' }),
        reply.toolUse('WebBrowser', { action: 'click', selector: 'text=Switch on' }),
        reply.toolUse('WebBrowser', { action: 'screenshot' }),
        reply.text('The lamp is on now.'),
      ],
      tmp,
    );
    expect(r.code, r.stderr).toBe(0);
    const results = toolResults(r.lines());
    expect(
      results.map((b) => b.is_error === true),
      JSON.stringify(results).slice(0, 2000),
    ).toEqual([false, false, false, false]);
    expect(text(results[0])).toContain('"Lamp"');
    expect(text(results[1])).toContain('The lamp is off.');
    expect(text(results[2])).toContain('The lamp is on.');
    // The model got the screenshot as an image block inside the tool result.
    const last = fake!.messageRequests.at(-1)?.body;
    const sent = last.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : []));
    const shot = sent.filter((b: any) => b.type === 'tool_result').at(-1);
    const image = shot.content.find((b: any) => b.type === 'image');
    expect(image.source.media_type).toBe('image/png');
    expect(Buffer.from(image.source.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(processesUnder(tmp)).toEqual([]);
    expect(readdirSync(tmp).filter((f) => f.startsWith('playwright'))).toEqual([]);
  });

  it('a host no rule allows is asked for, and refused with nobody to ask', async () => {
    const tmp = path.join(world.root, 'tmp2');
    mkdirSync(tmp);
    const r = await run(
      [
        reply.toolUse('WebBrowser', { action: 'navigate', url: 'https://example.invalid/' }),
        reply.text('Could not open it.'),
      ],
      tmp,
    );
    expect(r.code, r.stderr).toBe(0);
    const results = toolResults(r.lines());
    expect(results[0].is_error).toBe(true);
    expect(text(results[0])).toMatch(/Permission to use WebBrowser is required.*no one to ask/);
    expect(web.requests).toEqual([]);
  });
});
