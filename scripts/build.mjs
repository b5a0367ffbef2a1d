// Builds dist/gantry-hook.mjs: the `gantry hook` fast path (one ESM file; npm packages stay external),
// and dist/gantry-analysis-worker.mjs, the analysis worker thread its resident server starts.
// Runs on `npm ci` (prepare) and `npm run build`.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist', { recursive: true, force: true });

await build({
  entryPoints: {
    'gantry-hook': 'src/cli/hook/hook-bundle-entry.ts',
    // the shell-analysis worker thread of the resident hook server (src/shell/worker)
    'gantry-analysis-worker': 'src/shell/worker/analysis-worker.ts',
  },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: false,
  logLevel: 'warning',
});
