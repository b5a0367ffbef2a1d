/**
 * `gantry doctor [--cwd DIR] [--json]`: is Gantry set up and working here? (docs/guard.md "Doctor").
 * Runs every check of checks.ts and prints what was verified and a numbered list of problems, each
 * with its fix. Exit 0 when there is no problem, 1 when there is at least one, 3 on a usage error.
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { createGuard } from '../shared/guard.js';
import { packageRoot } from '../install/install-command.js';
import {
  checkBundle,
  checkInstalledHooks,
  checkRipgrep,
  checkSandboxPrograms,
  checkSettings,
  type Finding,
} from './checks.js';

export interface DoctorCliOptions {
  cwd?: string;
  json?: boolean;
  /** Tests: the home directory. */
  home?: string;
}

/** Every finding, in the order they are printed. */
export async function runDoctorChecks(o: {
  cwd: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
}): Promise<Finding[]> {
  const guard = createGuard({ cwd: o.cwd, home: o.home });
  return [
    ...checkSandboxPrograms(o.env),
    ...(await checkRipgrep(o.env)),
    ...checkSettings(guard.settings),
    ...checkInstalledHooks(o.home, o.cwd, o.env),
    ...(await checkBundle(packageRoot())),
  ];
}

export async function runDoctor(
  o: DoctorCliOptions,
  out: (s: string) => void = (s) => process.stdout.write(s),
): Promise<number> {
  const cwd = path.resolve(o.cwd ?? process.cwd());
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) {
    process.stderr.write(`gantry doctor: --cwd ${cwd} is not a directory\n`);
    return 3;
  }
  const home = o.home ?? homedir();
  const findings = await runDoctorChecks({ cwd, home, env: { ...process.env, HOME: home } });
  const problems = findings.filter((f) => f.kind === 'problem');
  if (o.json) {
    out(`${JSON.stringify({ ok: problems.length === 0, findings })}\n`);
    return problems.length === 0 ? 0 : 1;
  }
  for (const f of findings.filter((x) => x.kind === 'ok')) out(`ok   ${f.text}\n`);
  if (problems.length === 0) {
    out('\nAll checks passed.\n');
    return 0;
  }
  out(`\n${problems.length} problem(s):\n`);
  problems.forEach((p, i) => {
    out(`${i + 1}. ${p.text}\n${p.fix ? `   fix: ${p.fix}\n` : ''}`);
  });
  return 1;
}
