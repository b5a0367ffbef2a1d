/**
 * bench/permissions: decision latency of the whole permission pipeline without hooks,
 * over the security corpus and the tldr commands, with a realistic settings file (20 allow and
 * 10 deny rules). Targets: mean ≤ 200 µs, p99 ≤ 1.5 ms per decision.
 *
 * Two figures per corpus:
 * - end to end: shell analysis (parse, split, checks, read-only, effects) + the decision — what a
 *   Bash call costs in the runtime; the targets apply to this one;
 * - decision only: the engine on a ready description (the permission engine's own share).
 * Each command is timed individually after a warm-up pass: the fastest of REPS wall-clock runs, so
 * the figures stay meaningful on a shared, loaded machine (slower runs measure waiting for a core).
 * Ratios are against the targets, and with / without the destructive floor and the credential-read
 * checks (the same engine with `destructiveFloor: off` and `secretReads: allow`), timed interleaved.
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { mapPathResolver } from '../src/core/paths.js';
import type { CallDescription, PermissionRequest } from '../src/core/permission-types.js';
import { CORPUS_HOME, CORPUS_PROJECT, parseCases } from '../src/permissions/corpus/evaluate.js';
import { loadCorpusDescribers } from '../src/cli/shared/corpus-describers.js';
import { buildPermissionRequest } from '../src/core/permission-request.js';
import { hostToolDescriber } from '../src/permissions/describe-input.js';
import { createPermissionEngine } from '../src/permissions/engine.js';
import { settingsFromRules } from '../src/permissions/settings/from-rules.js';
import { sharedFile } from '../src/testing/shared-data.js';
import type { BenchReport } from './run.js';

const TARGET_MEAN_US = 200;
const TARGET_P99_US = 1500;
const REPS = 5;

/** A realistic project settings file: 20 allow, 10 deny. */
const ALLOW = [
  'Bash(npm run test:*)',
  'Bash(npm run lint:*)',
  'Bash(npm run build:*)',
  'Bash(npm test:*)',
  'Bash(npx tsc:*)',
  'Bash(npx vitest:*)',
  'Bash(git add:*)',
  'Bash(git commit:*)',
  'Bash(git checkout:*)',
  'Bash(git switch:*)',
  'Bash(git stash:*)',
  'Bash(git fetch:*)',
  'Bash(make:*)',
  'Bash(cargo test:*)',
  'Bash(go test:*)',
  'Bash(pytest:*)',
  'Bash(mkdir:*)',
  'Edit(./src/**)',
  'Read(~/.config/app/**)',
  'WebFetch(domain:docs.example.com)',
];
const DENY = [
  'Bash(rm -rf /:*)',
  'Bash(sudo:*)',
  'Bash(git push --force:*)',
  'Bash(curl:*)',
  'Bash(wget:*)',
  'Bash(npm publish:*)',
  'Read(./.env)',
  'Read(./secrets/**)',
  'Read(~/.ssh/**)',
  'Edit(./.github/workflows/**)',
];

interface Stats {
  n: number;
  meanUs: number;
  p50Us: number;
  p99Us: number;
  maxUs: number;
}

function stats(samplesNs: bigint[]): Stats {
  const us = samplesNs.map((n) => Number(n) / 1000).sort((a, b) => a - b);
  const at = (q: number) => us[Math.min(us.length - 1, Math.floor(q * us.length))] ?? 0;
  return {
    n: us.length,
    meanUs: us.reduce((a, b) => a + b, 0) / us.length,
    p50Us: at(0.5),
    p99Us: at(0.99),
    maxUs: us[us.length - 1] ?? 0,
  };
}

interface Item {
  toolName: string;
  input: Record<string, unknown>;
  command?: string;
}

export default async function bench(): Promise<BenchReport> {
  const corpusFile = sharedFile('data/security/cases.jsonl');
  const tldrFile = sharedFile('data/real/tldr-commands.jsonl');
  if (!corpusFile || !tldrFile)
    return { name: 'permissions', figures: {}, notes: ['../shared data missing: benchmark skipped'] };
  const corpus: Item[] = parseCases(readFileSync(corpusFile, 'utf8')).cases.map((c) =>
    typeof c.command === 'string'
      ? { toolName: 'Bash', input: { command: c.command }, command: c.command }
      : { toolName: c.tool ?? 'Read', input: c.input ?? {} },
  );
  const tldr: Item[] = readFileSync(tldrFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { command: string }).command)
    .filter((c) => typeof c === 'string')
    .map((command) => ({ toolName: 'Bash', input: { command }, command }));

  const { describeBash, describerFor } = await loadCorpusDescribers();
  const resolver = mapPathResolver({});
  const world = { cwd: CORPUS_PROJECT, home: CORPUS_HOME, resolver };
  const engine = createPermissionEngine({
    settings: settingsFromRules({
      projectRoot: CORPUS_PROJECT,
      home: CORPUS_HOME,
      allow: ALLOW,
      deny: DENY,
      source: 'projectSettings',
    }),
    resolver,
  });
  // The same engine without the destructive floor and the credential-read check: the baseline the
  // new checks are compared with, in the same run (docs/security-round-2.md).
  const withoutNewChecks = createPermissionEngine({
    settings: settingsFromRules({
      projectRoot: CORPUS_PROJECT,
      home: CORPUS_HOME,
      allow: ALLOW,
      deny: DENY,
      source: 'projectSettings',
      destructiveFloor: 'off',
      secretReads: 'allow',
    }),
    resolver,
  });
  const describerOf = (it: Item) => describerFor?.(it.toolName) ?? hostToolDescriber(it.toolName);
  const describe = (it: Item): CallDescription =>
    it.command !== undefined
      ? describeBash(it.command, world)
      : (describerOf(it).describe(it.input, world) as CallDescription);
  const requestFor = (it: Item, description: CallDescription, i: number): PermissionRequest =>
    buildPermissionRequest({
      tool: describerOf(it),
      toolName: it.toolName,
      input: it.input,
      description,
      toolUseId: `b${i}`,
      session: {
        cwd: CORPUS_PROJECT,
        projectRoot: CORPUS_PROJECT,
        additionalDirectories: [],
        permissionMode: 'default',
        sessionId: 'bench',
      },
    });

  /**
   * Times two functions on the same items, interleaved and in alternating order per repetition
   * (whichever runs first on an item pays for cold caches), keeping each item's fastest wall-clock
   * run (hrtime): on a shared machine the slower runs measure waiting for a core, not the work.
   * (Per-item CPU time is not usable: the kernel accounts it in scheduler ticks.)
   */
  const timePair = (
    n: number,
    a: (i: number) => void,
    b: (i: number) => void,
  ): [{ wall: Stats }, { wall: Stats }] => {
    const best = [new Array<bigint>(n), new Array<bigint>(n)].map((arr) =>
      arr.fill(BigInt(Number.MAX_SAFE_INTEGER)),
    );
    const fns = [a, b];
    for (let rep = 0; rep < REPS * 2; rep++)
      for (let i = 0; i < n; i++)
        for (const k of rep % 2 === 0 ? [0, 1] : [1, 0]) {
          const t0 = process.hrtime.bigint();
          (fns[k] as (i: number) => void)(i);
          const dt = process.hrtime.bigint() - t0;
          const arr = best[k] as bigint[];
          if (dt < (arr[i] as bigint)) arr[i] = dt;
        }
    return [{ wall: stats(best[0] as bigint[]) }, { wall: stats(best[1] as bigint[]) }];
  };
  const run = (items: Item[]) => {
    // Warm-up (JIT, parser caches).
    items.forEach((it, i) => engine.decideSync(requestFor(it, describe(it), i)));
    const counts = { allow: 0, ask: 0, deny: 0 };
    items.forEach((it, i) => counts[engine.decideSync(requestFor(it, describe(it), i)).decision.behavior]++);
    const [e2e, e2eBase] = timePair(
      items.length,
      (i) => {
        const it = items[i] as Item;
        engine.decideSync(requestFor(it, describe(it), i));
      },
      (i) => {
        const it = items[i] as Item;
        withoutNewChecks.decideSync(requestFor(it, describe(it), i));
      },
    );
    const reqs = items.map((it, i) => requestFor(it, describe(it), i));
    const [eng, base] = timePair(
      reqs.length,
      (i) => engine.decideSync(reqs[i] as PermissionRequest),
      (i) => withoutNewChecks.decideSync(reqs[i] as PermissionRequest),
    );
    return { e2e, e2eBase, eng, base, counts };
  };

  const c = run(corpus);
  const t = run(tldr);
  const figures: Record<string, number | string> = {};
  for (const [label, r] of [
    ['corpus', c],
    ['tldr', t],
  ] as const) {
    figures[`${label} commands`] = r.e2e.wall.n;
    figures[`${label} end-to-end mean µs`] = r.e2e.wall.meanUs;
    figures[`${label} end-to-end p50 µs`] = r.e2e.wall.p50Us;
    figures[`${label} end-to-end p99 µs`] = r.e2e.wall.p99Us;
    figures[`${label} end-to-end max µs`] = r.e2e.wall.maxUs;
    figures[`${label} end-to-end mean µs without floor and secret checks`] = r.e2eBase.wall.meanUs;
    figures[`${label} end-to-end p99 µs without floor and secret checks`] = r.e2eBase.wall.p99Us;
    figures[`${label} end-to-end mean: with / without the new checks`] =
      r.e2e.wall.meanUs / r.e2eBase.wall.meanUs;
    figures[`${label} end-to-end p99: with / without the new checks`] =
      r.e2e.wall.p99Us / r.e2eBase.wall.p99Us;
    figures[`${label} decision-only mean µs`] = r.eng.wall.meanUs;
    figures[`${label} decision-only p99 µs`] = r.eng.wall.p99Us;
    figures[`${label} decision-only mean µs without floor and secret checks`] = r.base.wall.meanUs;
    figures[`${label} decision-only mean: with / without the new checks`] =
      r.eng.wall.meanUs / r.base.wall.meanUs;
    figures[`${label} mean / target (200 µs)`] = r.e2e.wall.meanUs / TARGET_MEAN_US;
    figures[`${label} p99 / target (1.5 ms)`] = r.e2e.wall.p99Us / TARGET_P99_US;
    figures[`${label} decisions allow/ask/deny`] = `${r.counts.allow}/${r.counts.ask}/${r.counts.deny}`;
  }
  const load = loadavg()[0] ?? 0;
  return {
    name: 'permissions',
    figures,
    targets: {
      'corpus mean ≤ 200 µs': c.e2e.wall.meanUs <= TARGET_MEAN_US,
      'corpus p99 ≤ 1.5 ms': c.e2e.wall.p99Us <= TARGET_P99_US,
      'tldr mean ≤ 200 µs': t.e2e.wall.meanUs <= TARGET_MEAN_US,
      'tldr p99 ≤ 1.5 ms': t.e2e.wall.p99Us <= TARGET_P99_US,
    },
    notes: [
      `settings: ${ALLOW.length} allow + ${DENY.length} deny rules; no hooks; default mode`,
      `per-command time = fastest of ${REPS} runs (wall clock), so waiting for a core is not counted (load average ${load.toFixed(1)} on ${cpus().length} cores)`,
    ],
  };
}
