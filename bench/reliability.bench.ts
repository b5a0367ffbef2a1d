/**
 * bench/reliability: memory under load, as the process itself reports it, for this checkout and
 * (when `GANTRY_BASELINE_REPO` names another checkout, e.g. the commit before the reliability
 * round) the baseline, in one run, with ratios.
 *
 * 1. `gantry replay` peak RSS (`process.resourceUsage().maxRSS`) on two generated files: a 300 MB
 *    transcript of ~28,000 calls with their results, and a 300 MB file that is one single line.
 *    Target: under 300 MB for both.
 * 2. `gantry mcp --transport http`: RSS (VmRSS) after 3,000 `initialize` requests (each one a new
 *    session), after the sessions' idle time has passed, and after 3,000 more requests and the idle
 *    time again. RSS rarely shrinks (V8 keeps the pages it freed for reuse), so what shows that
 *    expired sessions are freed is the second round: it reuses the memory of the first instead of
 *    adding to it. This checkout runs with `--session-idle-ms 2000`; the baseline with its defaults.
 *    Target: the second round adds less than a quarter of what the first added.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createPermissionEngine, loadSettings } from '../src/permissions/index.js';
import { serveHttp } from '../src/mcp/server/http-server.js';
import { assembleToolPool } from '../src/runtime/index.js';
import { getAllBaseTools } from '../src/tools/index.js';
import type { BenchReport } from './run.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MB = 1024 * 1024;

function transcript300(file: string): number {
  const fd = openSync(file, 'w');
  let bytes = 0;
  let calls = 0;
  const out = (line: string) => {
    writeSync(fd, line);
    bytes += Buffer.byteLength(line);
  };
  const result = 'x'.repeat(10_000);
  while (bytes < 300 * MB) {
    const id = `toolu_${calls}`;
    out(
      `${JSON.stringify({ type: 'assistant', cwd: '/w', sessionId: 's', message: { content: [{ type: 'tool_use', id, name: calls % 2 ? 'Read' : 'Bash', input: calls % 2 ? { file_path: `/w/f${calls}.ts` } : { command: `ls d${calls}` } }] } })}\n`,
    );
    out(
      `${JSON.stringify({ type: 'user', cwd: '/w', sessionId: 's', message: { content: [{ type: 'tool_result', tool_use_id: id, content: result }] } })}\n`,
    );
    calls++;
  }
  closeSync(fd);
  return calls;
}

function singleLine300(file: string): void {
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(10 * MB, 0x61);
  for (let i = 0; i < 30; i++) writeSync(fd, block);
  writeSync(fd, '\n');
  closeSync(fd);
}

const REPORT_RSS = encodeURIComponent(
  "process.on('exit',()=>process.stderr.write('maxrss_kb='+process.resourceUsage().maxRSS+'\\n'))",
);

function replayPeakMb(repo: string, file: string, home: string): number | string {
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      `data:text/javascript,${REPORT_RSS}`,
      path.join(repo, 'bin', 'gantry.js'),
      'replay',
      file,
      '--json',
    ],
    { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home }, maxBuffer: 256 * MB },
  );
  const kb = Number(/maxrss_kb=(\d+)/.exec(r.stderr)?.[1]);
  if (r.status !== 0)
    return `exit ${r.status}${Number.isFinite(kb) ? ` after ${Math.round(kb / 1024)} MB` : ''}`;
  return kb / 1024;
}

function vmRssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1]) / 1024;
}

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
});

function post(port: number, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve());
      },
    );
    req.on('error', reject);
    req.end(INIT);
  });
}

async function httpSessions(repo: string, args: string[], home: string, waitMs: number) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      path.join(repo, 'bin', 'gantry.js'),
      'mcp',
      '--transport',
      'http',
      '--port',
      '0',
      '--cwd',
      home,
      ...args,
    ],
    { env: { PATH: process.env.PATH, HOME: home }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let text = '';
    child.stderr?.on('data', (c: Buffer) => {
      text += c.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${text}`)));
  });
  const pid = child.pid as number;
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  for (let i = 0; i < 50; i++) await post(port, agent); // warm-up
  await new Promise((r) => setTimeout(r, waitMs + 500));
  const before = vmRssMb(pid);
  for (let i = 0; i < 3000; i += 4) await Promise.all([0, 1, 2, 3].map(() => post(port, agent)));
  const after = vmRssMb(pid);
  await new Promise((r) => setTimeout(r, waitMs + 1500));
  const expired = vmRssMb(pid);
  for (let i = 0; i < 3000; i += 4) await Promise.all([0, 1, 2, 3].map(() => post(port, agent)));
  await new Promise((r) => setTimeout(r, waitMs + 1500));
  const second = vmRssMb(pid);
  agent.destroy();
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return { before, after, expired, second };
}

/**
 * The same 3,000 sessions against `serveHttp` in this process, with the real tool pool and
 * permission engine, measuring the live heap after a full garbage collection: RSS only shows
 * whether freed pages are reused, the live heap shows whether the expired sessions are gone.
 */
async function heapSessions(home: string, idleMs: number) {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const liveMb = async () => {
    await new Promise((r) => setImmediate(r));
    gc();
    gc();
    return process.memoryUsage().heapUsed / MB;
  };
  const settings = loadSettings({ projectRoot: home, home, managedFiles: [] });
  const engine = createPermissionEngine({ settings });
  const tools = assembleToolPool({
    builtIn: await getAllBaseTools(),
    isDenied: (n) => engine.isToolDenied(n),
  }).callable;
  const srv = await serveHttp(
    { tools, cwd: home, decide: engine.decider, sessionDir: path.join(home, 'heap-session') },
    0,
    { sessionIdleMs: idleMs },
  );
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  try {
    for (let i = 0; i < 50; i++) await post(srv.port, agent);
    await new Promise((r) => setTimeout(r, idleMs + 1500));
    const before = await liveMb();
    for (let i = 0; i < 3000; i += 4) await Promise.all([0, 1, 2, 3].map(() => post(srv.port, agent)));
    const open = srv.sessionCount();
    const after = await liveMb();
    await new Promise((r) => setTimeout(r, idleMs + 1500));
    const left = srv.sessionCount();
    const expired = await liveMb();
    return { before, after, expired, open, left };
  } finally {
    agent.destroy();
    await srv.close();
  }
}

export default async function bench(): Promise<BenchReport> {
  const baseline = process.env.GANTRY_BASELINE_REPO;
  const repos: [string, string][] = [['this checkout', REPO]];
  if (baseline && existsSync(path.join(baseline, 'bin', 'gantry.js'))) repos.push(['baseline', baseline]);
  const dir = mkdtempSync(path.join(tmpdir(), 'gantry-reliability-bench-'));
  const figures: Record<string, number | string> = {};
  const targets: Record<string, boolean> = {};
  try {
    const many = path.join(dir, 'many-calls.jsonl');
    const calls = transcript300(many);
    const single = path.join(dir, 'single-line.jsonl');
    singleLine300(single);
    figures['transcript calls'] = calls;
    const peaks: Record<string, Record<string, number | string>> = {};
    for (const [label, repo] of repos) {
      peaks[label] = {
        many: replayPeakMb(repo, many, dir),
        single: replayPeakMb(repo, single, dir),
      };
      figures[`${label}: replay peak RSS MB, 300 MB transcript`] = peaks[label].many as number;
      figures[`${label}: replay peak RSS MB, 300 MB single line`] = peaks[label].single as number;
    }
    const mine = peaks['this checkout'] as Record<string, number | string>;
    targets['replay under 300 MB RSS (300 MB transcript)'] = typeof mine.many === 'number' && mine.many < 300;
    targets['replay under 300 MB RSS (300 MB single line)'] =
      typeof mine.single === 'number' && mine.single < 300;
    const base = peaks.baseline;
    if (base && typeof base.many === 'number' && typeof mine.many === 'number')
      figures['replay peak ratio (this / baseline), transcript'] = mine.many / base.many;
    if (base && typeof base.single === 'number' && typeof mine.single === 'number')
      figures['replay peak ratio (this / baseline), single line'] = mine.single / base.single;

    for (const [label, repo] of repos) {
      const args = label === 'this checkout' ? ['--session-idle-ms', '2000'] : [];
      const r = await httpSessions(repo, args, dir, label === 'this checkout' ? 2000 : 0);
      figures[`${label}: http RSS MB before 3,000 sessions`] = r.before;
      figures[`${label}: http RSS MB after 3,000 sessions`] = r.after;
      figures[`${label}: http RSS MB after the idle time`] = r.expired;
      figures[`${label}: http RSS MB after 3,000 more and the idle time`] = r.second;
      if (label === 'this checkout')
        targets['http: the second 3,000 sessions add < 1/4 of the first'] =
          r.second - r.expired < (r.expired - r.before) / 4;
    }
    const h = await heapSessions(dir, 2000);
    figures['in-process: live heap MB before 3,000 sessions'] = h.before;
    figures['in-process: live heap MB after 3,000 sessions (the last 1,000 open: the session cap)'] = h.after;
    figures['in-process: sessions open, then after the idle time'] = `${h.open}, ${h.left}`;
    figures['in-process: live heap MB after the idle time'] = h.expired;
    targets['in-process: expired sessions are freed (live heap back within 10% of what they added)'] =
      h.left === 0 && h.expired - h.before < (h.after - h.before) / 10;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { name: 'reliability: replay and HTTP session memory', figures, targets };
}
