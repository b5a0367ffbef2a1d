/**
 * The body of a shell-analysis worker thread (pool.ts). Loads the parser once, then answers
 * `{type: 'analyze', id, command, cwd, home, deadlineMs}` with `{type: 'result', id, analysis}`,
 * one at a time, each within its own deadline (the cooperative budget of budget.ts). Sends
 * `{type: 'ready'}` once the parser is loaded and `{type: 'error', message}` when it cannot load.
 */
import { parentPort } from 'node:worker_threads';
import { analyzeCommand } from '../analyze.js';
import { initShellParser } from '../parser.js';

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
  try {
    await initShellParser();
    port.on('message', (m: AnalyzeMessage) => {
      if (m?.type !== 'analyze') return;
      try {
        const analysis = analyzeCommand(m.command, { cwd: m.cwd, home: m.home, deadlineMs: m.deadlineMs });
        port.postMessage({ type: 'result', id: m.id, analysis });
      } catch (e) {
        port.postMessage({ type: 'error', id: m.id, message: e instanceof Error ? e.message : String(e) });
      }
    });
    port.postMessage({ type: 'ready' });
  } catch (e) {
    port.postMessage({
      type: 'error',
      message: `the shell parser did not load: ${e instanceof Error ? e.message : String(e)}`,
    });
  }
}
