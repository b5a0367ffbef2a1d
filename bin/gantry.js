#!/usr/bin/env node
// Entry point of the `gantry` command. Every command runs the built JavaScript in dist/ (made by
// `npm run build`, which `npm ci` and `npm pack` run):
// - `gantry hook` from dist/fast/gantry-hook.mjs, the smallest start a host's every tool call can pay;
// - `gantry check` from dist/fast/gantry-check.mjs, a client of the hook's resident server that
//   checks in-process (dist/fast/gantry-check-local.mjs, no command-line parser) when none answers;
// - everything else from dist/fast/gantry.mjs.
// Run from a git checkout (a src/ folder and .git beside bin/), dist/ is first compared with the
// sources (dist/.build-stamp.json) and rebuilt when they changed, so an edit is never run stale.
// An installed package has no src/ and skips the comparison.
// Only `node:fs` and `node:url` at the top: the hook's warm path pays for every module loaded here
// (`node:child_process` is imported only to rebuild).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

if (existsSync(`${root}src`) && existsSync(`${root}.git`) && existsSync(`${root}scripts/build-inputs.mjs`)) {
  const { staleReason } = await import('../scripts/build-inputs.mjs');
  const reason = staleReason(root);
  if (reason) {
    // Rebuild the JavaScript (about a second; the declarations are left to `npm run build`).
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync(process.execPath, [`${root}scripts/build.mjs`, '--if-stale', '--js-only'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
    });
    if (r.status !== 0) {
      process.stderr.write(
        `gantry: ${reason}, and rebuilding it failed; run \`npm run build\` in ${root}\n${r.stderr ?? ''}`,
      );
      process.exit(1);
    }
  }
}

const command = process.argv[2];
const wantsHelp = process.argv.includes('--help') || process.argv.includes('-h');
const entry =
  command === 'hook' && !wantsHelp
    ? '../dist/fast/gantry-hook.mjs'
    : command === 'check'
      ? '../dist/fast/gantry-check.mjs'
      : '../dist/fast/gantry.mjs';
if (!existsSync(fileURLToPath(new URL(entry, import.meta.url)))) {
  process.stderr.write(
    `gantry: ${fileURLToPath(new URL(entry, import.meta.url))} is missing; run \`npm run build\`\n`,
  );
  process.exit(1);
}
await import(entry);
