// Starts a worker thread from the TypeScript sources: tsx's loader is registered in this thread
// (a worker does not inherit the loader the main thread registered), then the module named in
// workerData.entry is imported (src/shell/worker/entry.ts).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
