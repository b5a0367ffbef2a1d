/**
 * A shell-analysis worker for tests (src/shell/worker/pool.ts, `gantry mcp` tests): it answers like
 * src/shell/worker/analysis-worker.ts, except for commands that start with a marker line:
 *  - `#stall`: the thread blocks for good (as an analysis stuck inside wasm would); only
 *    terminating the thread ends it;
 *  - `#crash`: the thread throws outside any handler (an uncaught error ends it).
 * Only tests start it (through `sourceWorker(new URL(…))`).
 */
import { parentPort } from 'node:worker_threads';
import { analyzeCommand, initShellParser } from '../shell/index.js';

interface AnalyzeMessage {
  type: 'analyze';
  id: number;
  command: string;
  cwd: string;
  home: string;
  deadlineMs: number;
}

const port = parentPort;
if (port) {
  await initShellParser();
  port.on('message', (m: AnalyzeMessage) => {
    if (m.command.startsWith('#stall')) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    if (m.command.startsWith('#crash'))
      setImmediate(() => {
        throw new Error('analysis worker crashed on purpose');
      });
    else {
      const analysis = analyzeCommand(m.command, { cwd: m.cwd, home: m.home, deadlineMs: m.deadlineMs });
      port.postMessage({ type: 'result', id: m.id, analysis });
    }
  });
  port.postMessage({ type: 'ready' });
}
