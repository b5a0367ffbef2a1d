/**
 * The listening faces when they cannot listen: `gantry serve --port P` and
 * `gantry mcp --transport http --port P` with P already taken by another process print one line
 * naming the address and exit 1 instead of staying up with nothing to serve.
 */
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gantryEnv, makePrintWorld, type PrintWorld, runGantry } from '../testing/print-fixtures.js';

let world: PrintWorld;
let taken: Server;
let port: number;

beforeAll(async () => {
  world = makePrintWorld();
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  port = (taken.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => taken.close(() => resolve()));
  world.cleanup();
});

const faces: Array<{ name: string; args: () => string[]; reason: string }> = [
  { name: 'serve', args: () => ['serve', '--port', String(port)], reason: 'the HTTP hook' },
  {
    name: 'mcp',
    args: () => ['mcp', '--transport', 'http', '--port', String(port), '--cwd', world.project],
    reason: 'the MCP server over HTTP',
  },
];

describe('a listening face whose port is in use', () => {
  for (const face of faces) {
    it(`gantry ${face.name} (${face.reason}) exits 1 with one line naming the port`, async () => {
      const run = await runGantry(face.args(), {
        cwd: world.project,
        env: gantryEnv(world, undefined),
        timeoutMs: 20_000,
      });
      expect(run.signal, `still running after 20 s; stderr: ${run.stderr}`).toBeNull();
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      const errors = run.stderr.split('\n').filter((l) => l.includes('cannot listen'));
      expect(errors).toEqual([
        `gantry ${face.name}: cannot listen on 127.0.0.1:${port}: the port is already in use`,
      ]);
      expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    }, 30_000);
  }
});
