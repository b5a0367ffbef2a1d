/**
 * `gantry serve` decision latency: a client POSTs the hook JSON (keep-alive, as a host does) and
 * reads the answer; p50 and p99 over 300 requests each for a Bash and a Read payload, beside the
 * median start of `node -e 0` measured in the same run (the cost the HTTP hook avoids).
 * Targets (docs/guard.md): p50 ≤ 2 ms, p99 ≤ 10 ms, p50 / `node -e 0` ≤ 0.05.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { BenchReport } from './run.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REQUESTS = 300;
const WARMUP = 50;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
}

export default async function bench(): Promise<BenchReport> {
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale', '--js-only'], {
    cwd: repo,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(build.stderr);
  const home = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-serve-bench-')));
  const project = path.join(home, 'app');
  mkdirSync(project);
  const token = 'bench-token-0123456789abcdef';
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(repo, 'bin', 'gantry.js'), 'serve', '--port', '0'],
    {
      env: { PATH: process.env.PATH, HOME: home, GANTRY_HOOK_TOKEN: token, GANTRY_HOOK_LOG: 'off' },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  try {
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', (l) =>
        resolve(l.trim()),
      );
      child.once('exit', (c) => reject(new Error(`gantry serve exited ${c}`)));
    });
    const payload = (tool_name: string, tool_input: unknown) =>
      JSON.stringify({
        hook_event_name: 'PreToolUse',
        session_id: 's',
        cwd: project,
        permission_mode: 'default',
        tool_use_id: 't',
        tool_name,
        tool_input,
      });
    const bodies = {
      bash: payload('Bash', { command: 'git status && rg -n TODO src | head -20' }),
      read: payload('Read', { file_path: path.join(project, 'src/a.ts') }),
    };
    const once = async (body: string): Promise<number> => {
      const t0 = process.hrtime.bigint();
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });
      const json = (await res.json()) as { hookSpecificOutput?: { permissionDecision?: string } };
      if (!json.hookSpecificOutput?.permissionDecision) throw new Error('no decision');
      return Number(process.hrtime.bigint() - t0) / 1e6;
    };
    for (let i = 0; i < WARMUP; i++) {
      await once(bodies.bash);
      await once(bodies.read);
    }
    const t = { bash: [] as number[], read: [] as number[], node: [] as number[] };
    for (let i = 0; i < REQUESTS; i++) {
      t.bash.push(await once(bodies.bash));
      t.read.push(await once(bodies.read));
      if (i % 20 === 0) {
        const t0 = process.hrtime.bigint();
        spawnSync(process.execPath, ['-e', '0']);
        t.node.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
    }
    const node = quantile(t.node, 0.5);
    const f = {
      bashP50: quantile(t.bash, 0.5),
      bashP99: quantile(t.bash, 0.99),
      readP50: quantile(t.read, 0.5),
      readP99: quantile(t.read, 0.99),
    };
    return {
      name: `gantry serve (HTTP hook) decision latency, ${REQUESTS} keep-alive requests per payload`,
      figures: {
        'node -e 0 ms (median)': node,
        'Bash p50 ms': f.bashP50,
        'Bash p99 ms': f.bashP99,
        'Read p50 ms': f.readP50,
        'Read p99 ms': f.readP99,
        'Bash p50 ratio to node -e 0': f.bashP50 / node,
        'Read p50 ratio to node -e 0': f.readP50 / node,
      },
      targets: {
        'p50 ≤ 2 ms (Bash and Read)': Math.max(f.bashP50, f.readP50) <= 2,
        'p99 ≤ 10 ms (Bash and Read)': Math.max(f.bashP99, f.readP99) <= 10,
        'p50 ratio to node -e 0 ≤ 0.05': Math.max(f.bashP50, f.readP50) / node <= 0.05,
      },
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(home, { recursive: true, force: true });
  }
}
