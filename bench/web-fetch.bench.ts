/**
 * WebFetch of a 2 MB HTML page from a local server to Markdown, with no prompt model (the tool
 * returns the Markdown), beside the conversion floor: `curl` fetching the same page plus turndown
 * (with the same GFM plugin) converting it alone. Targets, measured in one run: WebFetch's median
 * time ≤ 1.3 × the floor's, and its peak RSS ≤ 1.3 × turndown's.
 *
 * - The page is `generateDocsHtml(2 MB)` (sections with prose, links, tables and code; a sidebar,
 *   scripts and styles) served by a real HTTP server on 127.0.0.1 in this process.
 * - WebFetch runs in a child Node process (tsx, `--expose-gc`), each call through the real runtime
 *   a fresh fetch (cache off), timed from the call to its result. Peak RSS is the child's `maxRSS`.
 * - The floor: `curl -s -o <file>` of the same URL (process start included: that is what curl
 *   costs), and a child like the first that converts the downloaded file with turndown + GFM,
 *   timed around `turndown()` alone. The floor is the sum of the two medians; its peak RSS is the
 *   turndown child's.
 * - Both children stay alive and take turns: one warm-up each, then `RUNS` rounds of curl,
 *   turndown, WebFetch (one run per line the parent writes to the child's stdin), so a change in
 *   the machine's load hits all three alike.
 * Children are selected by `GANTRY_WEBFETCH_BENCH_CHILD` (`webfetch` or `turndown`).
 */
import { execFile, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
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

/**
 * A full collection before each run, outside the timing and the same in both children, so peak RSS
 * is one conversion's peak rather than whatever garbage earlier runs left (without it the ratio
 * swung between 0.9 and 1.4 from one run of the bench to the next).
 */
const collectGarbage = () => (globalThis as { gc?: () => void }).gc?.();

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

/** A child's side of the turn-taking: one run per line on stdin, its result as a JSON line. */
async function serveRuns(once: () => Promise<{ ms: number; chars: number }>): Promise<void> {
  const lines = createInterface({ input: process.stdin });
  for await (const _line of lines) {
    collectGarbage();
    console.log(JSON.stringify(await once()));
  }
  console.log(JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
}

async function webFetchChild(url: string): Promise<void> {
  const { createWebFetchTool } = await import('../src/tools/web-fetch/web-fetch.tool.js');
  const { makeTempDir, makeToolContext, runTool } = await import('../src/testing/tool-harness.js');
  const temp = await makeTempDir('gantry-bench-webfetch-');
  const tool = createWebFetchTool({
    env: { CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS: '0' },
    settings: { allowPrivateHosts: ['127.0.0.1'], allowHttpHosts: ['127.0.0.1'] },
  });
  const context = makeToolContext({ cwd: temp.dir });
  try {
    await serveRuns(async () => {
      const started = performance.now();
      const call = await runTool<{ result: string; bytes: number }>(
        tool,
        { url, prompt: 'Summarise' },
        context,
      );
      const ms = performance.now() - started;
      if (!call.ok) throw new Error(call.error);
      return { ms, chars: call.data.result.length };
    });
  } finally {
    await tool.dispose();
    await temp.cleanup();
  }
}

async function turndownChild(file: string): Promise<void> {
  const { default: TurndownService } = await import('turndown');
  const { gfm } = await import('@joplin/turndown-plugin-gfm');
  const html = readFileSync(file, 'utf8');
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  service.use(gfm);
  await serveRuns(async () => {
    const started = performance.now();
    const chars = service.turndown(html).length;
    return { ms: performance.now() - started, chars };
  });
}

/** A live child: `next()` asks for one run and waits for its JSON line; `end()` returns its peak RSS. */
function startChild(mode: string, arg: string) {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', thisFile, arg], {
    env: { ...process.env, GANTRY_WEBFETCH_BENCH_CHILD: mode },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const read = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`the ${mode} child ended early (exit ${String(await exited)})`);
    return JSON.parse(value as string);
  };
  return {
    async next(): Promise<{ ms: number; chars: number }> {
      child.stdin.write('run\n');
      return read();
    },
    async end(): Promise<number> {
      child.stdin.end();
      const last = (await read()) as { maxRssBytes: number };
      await exited;
      return last.maxRssBytes;
    },
    kill: () => child.kill(),
  };
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
    const curl = async () => {
      const started = performance.now();
      await run('curl', ['-s', '--compressed', '-o', file, url]);
      return performance.now() - started;
    };
    await curl();
    if (readFileSync(file, 'utf8') !== html) throw new Error('curl did not fetch the page');
    const turndownChildProcess = startChild('turndown', file);
    const webFetchChildProcess = startChild('webfetch', url);
    const curlTimes: number[] = [];
    const td = { times: [] as number[], chars: 0, maxRssBytes: 0 };
    const wf = { times: [] as number[], chars: 0, maxRssBytes: 0 };
    try {
      // One warm-up each, then RUNS rounds in turn so all three see the same machine load.
      await turndownChildProcess.next();
      await webFetchChildProcess.next();
      for (let i = 0; i < RUNS; i++) {
        curlTimes.push(await curl());
        const t = await turndownChildProcess.next();
        td.times.push(t.ms);
        td.chars = t.chars;
        const w = await webFetchChildProcess.next();
        wf.times.push(w.ms);
        wf.chars = w.chars;
      }
      td.maxRssBytes = await turndownChildProcess.end();
      wf.maxRssBytes = await webFetchChildProcess.end();
    } finally {
      turndownChildProcess.kill();
      webFetchChildProcess.kill();
    }
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
      targets: {
        'WebFetch median ≤ 1.3 × (curl + turndown)': ratio <= 1.3,
        'WebFetch peak RSS ≤ 1.3 × turndown alone': wf.maxRssBytes / td.maxRssBytes <= 1.3,
      },
      notes: [
        `${RUNS} rounds (curl, turndown, WebFetch in turn, so each sees the same load) after one warm-up each; WebFetch fetches afresh every call (cache off); a full GC before every run in both children.`,
        'Peak RSS of the WebFetch child includes the runtime it loads (about 25 MB more than turndown alone at start).',
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
