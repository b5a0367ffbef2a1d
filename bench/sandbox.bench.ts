/**
 * bench/sandbox: what the OS sandbox adds to a Bash command, measured in the
 * same run against the same command unsandboxed. Target: ≤ 25 ms added per command.
 *
 * Commands, each run through the Bash tool (`createBashTool().call`, real temp session) with and
 * without the sandbox, interleaved so drift hits both sides alike, after warm-up:
 * - `true` — the fixed cost (bwrap namespaces and mounts, nsenter into the shared network
 *   namespace, the seccomp filter, the filesystem plan and the protected-path audit);
 * - `rg -c needle <dir>` over 1,000 files — a real read-heavy command.
 * Also reported: the same `true` through the wrapper alone (no tool), and the one-off session
 * set-up (proxy, network holder) paid by the first sandboxed call.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { defaultSandboxSettings } from '../src/core/sandbox-settings.js';
import { createSandboxManager } from '../src/sandbox/index.js';
import { createBashTool } from '../src/tools/bash/bash.tool.js';
import { makeTestSession, runTool } from '../src/testing/tool-harness.js';
import type { BenchReport } from './run.js';

const ROUNDS = 40;
const WARMUP = 3;
const FILES = 1000;
const TARGET_ADDED_MS = 25;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

async function timeIt(fn: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

function spawnAndWait(file: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: 'ignore' });
    child.once('error', reject);
    child.once('close', () => resolve());
  });
}

export default async function bench(): Promise<BenchReport> {
  const session = await makeTestSession();
  const corpus = path.join(session.root, 'corpus');
  mkdirSync(corpus);
  for (let i = 0; i < FILES; i++) {
    writeFileSync(
      path.join(corpus, `f${i}.txt`),
      `line one\n${i % 7 === 0 ? 'needle\n' : ''}line three ${i}\n`,
    );
  }
  const sandbox = createSandboxManager({
    settings: { ...defaultSandboxSettings(), enabled: true },
    workingDirectories: () => [session.root],
  });
  const plain = createBashTool({ killGraceMs: 500 });
  const boxed = createBashTool({ sandbox, killGraceMs: 500 });
  const run = async (tool: ReturnType<typeof createBashTool>, command: string) => {
    const result = await runTool<{ stdout: string }>(tool, { command }, session.context);
    if (!result.ok) throw new Error(result.error);
  };

  await run(plain, 'true'); // loads the shell parser, so the next figure is the sandbox's set-up only
  const setupMs = await timeIt(() => run(boxed, 'true'));
  const commands = { true: 'true', rg: `rg -c needle ${corpus} | wc -l` };
  const samples: Record<string, { plain: number[]; boxed: number[] }> = {};
  for (const [label, command] of Object.entries(commands)) {
    const s = { plain: [] as number[], boxed: [] as number[] };
    for (let i = 0; i < WARMUP; i++) {
      await run(plain, command);
      await run(boxed, command);
    }
    for (let i = 0; i < ROUNDS; i++) {
      s.plain.push(await timeIt(() => run(plain, command)));
      s.boxed.push(await timeIt(() => run(boxed, command)));
    }
    samples[label] = s;
  }

  // The wrapper alone: spec → wrap → spawn → cleanup, no tool around it.
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const spec = { file: 'true', args: [], cwd: session.root, env, harnessWritablePaths: [] };
  const info = { command: 'true', dangerouslyDisableSandbox: false, background: false };
  const raw = { plain: [] as number[], boxed: [] as number[] };
  for (let i = 0; i < ROUNDS + WARMUP; i++) {
    const p = await timeIt(() => spawnAndWait('true', [], env));
    const b = await timeIt(async () => {
      const wrapped = await sandbox.wrap(spec, info);
      await spawnAndWait(wrapped.spec.file, wrapped.spec.args, wrapped.spec.env);
      wrapped.cleanup();
    });
    if (i >= WARMUP) {
      raw.plain.push(p);
      raw.boxed.push(b);
    }
  }
  await sandbox.dispose();
  await session.cleanup();

  const figures: Record<string, number> = { 'first sandboxed call incl. session set-up ms': setupMs };
  const targets: Record<string, boolean> = {};
  const report = (label: string, s: { plain: number[]; boxed: number[] }) => {
    const p = median(s.plain);
    const b = median(s.boxed);
    figures[`${label}: unsandboxed median ms`] = p;
    figures[`${label}: sandboxed median ms`] = b;
    figures[`${label}: ratio sandboxed/unsandboxed`] = b / p;
    figures[`${label}: added ms`] = b - p;
    figures[`${label}: added ms, fastest runs (min − min)`] = Math.min(...s.boxed) - Math.min(...s.plain);
    return b - p;
  };
  targets[`Bash tool \`true\`: added ≤ ${TARGET_ADDED_MS} ms`] =
    report('Bash tool `true`', samples.true as { plain: number[]; boxed: number[] }) <= TARGET_ADDED_MS;
  targets[`Bash tool rg over ${FILES} files: added ≤ ${TARGET_ADDED_MS} ms`] =
    report(`Bash tool rg over ${FILES} files`, samples.rg as { plain: number[]; boxed: number[] }) <=
    TARGET_ADDED_MS;
  report('wrapper only `true` (no tool)', raw);
  return {
    name: 'OS sandbox overhead per Bash command',
    figures,
    targets,
    notes: [
      `${ROUNDS} interleaved rounds after ${WARMUP} warm-up rounds per command; medians (and the fastest runs, which show the intrinsic cost when other processes compete for the CPU).`,
      `load average while measuring: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(
          ' / ',
        )} on ${availableParallelism()} CPUs (a sandboxed command is 3 more process hops, each waits for a CPU under load).`,
      'Sandboxed = bwrap (user/pid/ipc/uts/cgroup namespaces, read-only root, writable project + session TMPDIR, protected paths read-only, credentials hidden, seccomp) inside the session network namespace with the filtering proxy.',
    ],
  };
}
