/**
 * WebFetch of a 2 MB HTML page from a local server to Markdown, with no prompt model (the tool
 * returns the Markdown), beside the conversion floor: `curl` fetching the same page plus turndown
 * (with the same GFM plugin) converting it alone. Target: WebFetch's median time ≤ 1.3 × the
 * floor's, measured in one run.
 *
 * - The page is `generateDocsHtml(2 MB)` (sections with prose, links, tables and code; a sidebar,
 *   scripts and styles) served by a real HTTP server on 127.0.0.1 in this process.
 * - WebFetch runs in a child Node process (tsx, like the turndown child): one warm-up call, then
 *   `RUNS` timed calls through the real runtime, each a fresh fetch (cache off), each timed from
 *   the call to its result. Peak RSS is the child's `maxRSS`.
 * - The floor: `curl -s -o <file>` of the same URL, `RUNS` times (process start included: that is
 *   what curl costs), and a child that converts the downloaded file with turndown + GFM `RUNS`
 *   times after one warm-up, each timed around `turndown()` alone. The floor is the sum of the two
 *   medians; its peak RSS is the turndown child's.
 * Children are selected by `GANTRY_WEBFETCH_BENCH_CHILD` (`webfetch` or `turndown`).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { BenchReport } from './run.js';

const RUNS = 7;
const PAGE_BYTES = 2 * 1024 * 1024;
const thisFile = fileURLToPath(import.meta.url);
/** Async so the page server in this process keeps answering while a child or curl runs. */
const run = promisify(execFile);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

async function webFetchChild(url: string): Promise<void> {
  const { createWebFetchTool } = await import('../src/tools/web-fetch/web-fetch.tool.js');
  const { makeTempDir, makeToolContext, runTool } = await import('../src/testing/tool-harness.js');
  const temp = await makeTempDir('gantry-bench-webfetch-');
  const tool = createWebFetchTool({
    env: { CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS: '0' },
    settings: { allowPrivateHosts: ['127.0.0.1'], allowHttpHosts: ['127.0.0.1'] },
  });
  const context = makeToolContext({ cwd: temp.dir });
  const times: number[] = [];
  let chars = 0;
  for (let i = 0; i <= RUNS; i++) {
    const started = performance.now();
    const call = await runTool<{ result: string; bytes: number }>(
      tool,
      { url, prompt: 'Summarise' },
      context,
    );
    const ms = performance.now() - started;
    if (!call.ok) throw new Error(call.error);
    chars = call.data.result.length;
    if (i > 0) times.push(ms);
  }
  await tool.dispose();
  await temp.cleanup();
  console.log(JSON.stringify({ times, chars, maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
}

async function turndownChild(file: string): Promise<void> {
  const { default: TurndownService } = await import('turndown');
  const { gfm } = await import('@joplin/turndown-plugin-gfm');
  const html = readFileSync(file, 'utf8');
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  service.use(gfm);
  const times: number[] = [];
  let chars = 0;
  for (let i = 0; i <= RUNS; i++) {
    const started = performance.now();
    chars = service.turndown(html).length;
    const ms = performance.now() - started;
    if (i > 0) times.push(ms);
  }
  console.log(JSON.stringify({ times, chars, maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
}

async function runChild(
  mode: string,
  arg: string,
): Promise<{ times: number[]; chars: number; maxRssBytes: number }> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', thisFile, arg], {
    env: { ...process.env, GANTRY_WEBFETCH_BENCH_CHILD: mode },
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').pop() as string);
}

export default async function bench(): Promise<BenchReport> {
  const { startLocalWebServer, page } = await import('../src/testing/local-web-server.js');
  const { generateDocsHtml } = await import('../src/testing/generate-docs-html.js');
  const html = generateDocsHtml(PAGE_BYTES);
  const server = await startLocalWebServer({ '/page.html': page(html) });
  const dir = mkdtempSync(path.join(tmpdir(), 'gantry-bench-webfetch-'));
  try {
    const url = server.url('/page.html');
    const file = path.join(dir, 'page.html');
    const curlTimes: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const started = performance.now();
      await run('curl', ['-s', '--compressed', '-o', file, url]);
      if (i > 0) curlTimes.push(performance.now() - started);
    }
    if (readFileSync(file, 'utf8') !== html) throw new Error('curl did not fetch the page');
    const td = await runChild('turndown', file);
    const wf = await runChild('webfetch', url);
    const floor = median(curlTimes) + median(td.times);
    const ratio = median(wf.times) / floor;
    return {
      name: 'WebFetch of a 2 MB HTML page to Markdown vs curl + turndown',
      figures: {
        'page bytes': Buffer.byteLength(html),
        'WebFetch median ms': median(wf.times),
        'curl median ms': median(curlTimes),
        'turndown alone median ms': median(td.times),
        'floor (curl + turndown) ms': floor,
        'ratio WebFetch / floor': ratio,
        'WebFetch child peak RSS MB': wf.maxRssBytes / 1024 / 1024,
        'turndown child peak RSS MB': td.maxRssBytes / 1024 / 1024,
        'ratio peak RSS WebFetch / turndown': wf.maxRssBytes / td.maxRssBytes,
        'turndown Markdown chars': td.chars,
        'WebFetch result chars (first window)': wf.chars,
      },
      targets: { 'WebFetch median ≤ 1.3 × (curl + turndown)': ratio <= 1.3 },
      notes: [
        `${RUNS} timed runs each after one warm-up; WebFetch fetches afresh every call (cache off).`,
        'WebFetch drops navigation, scripts, styles and forms before converting; turndown alone converts everything.',
      ],
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === thisFile) {
  const mode = process.env.GANTRY_WEBFETCH_BENCH_CHILD;
  if (mode === 'webfetch') await webFetchChild(process.argv[2] as string);
  else if (mode === 'turndown') await turndownChild(process.argv[2] as string);
}
