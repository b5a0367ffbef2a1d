/**
 * Malformed `tools/call` results from a real stdio server (the test server's `malformed` tool,
 * src/testing/mcp-test-server.ts): the SDK parses a result only as a result object, Gantry checks
 * the rest (tools/result-shape.ts). Each malformed result is an `is_error` tool result naming what
 * is wrong, through the runtime, with nothing passed on; the connection goes on serving calls.
 * docs/mcp-client.md "Results".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentText } from '../../core/content.js';
import { allowAllDecider } from '../../runtime/deciders.js';
import { createToolRuntime } from '../../runtime/index.js';
import { type McpTestSession, startMcpSession, stdioEntry } from '../../testing/mcp-client-fixtures.js';
import { mcpTestServerCommand } from '../../testing/mcp-test-server.js';
import { isBase64, mcpResultProblem } from './tools/result-shape.js';

let s: McpTestSession;
beforeAll(async () => {
  // A 2 s call timeout: a response that is not a JSON-RPC result never reaches the call (below).
  s = await startMcpSession({
    bad: stdioEntry(mcpTestServerCommand({ toolCount: 0, malformed: true }), { timeoutMs: 2_000 }),
  });
});
afterAll(async () => {
  await s?.cleanup();
});

let n = 0;
async function call(name: string, input: Record<string, unknown>) {
  const runtime = createToolRuntime({
    tools: s.manager.tools(),
    cwd: s.root,
    sessionDir: s.sessionDir,
    decide: allowAllDecider,
    env: {},
  });
  const turn = await runtime.runToolsToCompletion([
    { type: 'tool_use', id: `toolu_bad_${++n}`, name: `mcp__bad__${name}`, input },
  ]);
  const result = turn.results[0];
  return { result, text: contentText(result?.content ?? ''), call: turn.calls[0] };
}

describe('malformed tools/call results (real stdio server)', () => {
  it.each([
    ['content_not_array', '"content" is a string, not an array of content blocks'],
    [
      'unknown_type',
      'content[1] has type "video", which is not an MCP content block type (text, image, audio, resource_link, resource)',
    ],
    ['text_not_string', 'content[0] (text) "text" is a number, not a string'],
    ['block_null', 'content[0] is null, not a content block object'],
    ['image_bad_base64', 'content[0] (image) "data" is not base64'],
    ['image_no_mime', 'content[0] (image) "mimeType" is missing, not a string'],
    ['link_no_name', 'content[0] (resource_link) "name" is missing, not a string'],
    ['resource_empty', 'content[0] (resource) resource has neither "text" nor "blob"'],
    ['is_error_string', '"isError" is a string, not a boolean'],
    ['structured_array', '"structuredContent" is an array, not an object'],
    ['error_malformed', 'content[0] (text) "text" is missing, not a string'],
  ])('%s: an error result naming the problem, nothing of the result passed on', async (kind, problem) => {
    const { result, text, call: record } = await call('malformed', { kind });
    expect(result?.is_error).toBe(true);
    expect(text).toContain(`MCP server "bad" returned a malformed result for malformed: ${problem}.`);
    expect(text).toContain('The tool ran on the server, but its result was not passed on.');
    expect(text).not.toContain('fine');
    expect(text).not.toContain('maybe');
    expect(record?.status).not.toBe('ok');
  });

  // Not even a JSON-RPC result: the SDK's transport drops such a message (it reports a parse
  // error, not which request it answered), so the call ends at its timeout, as an error result.
  it.each(['result_array', 'meta_not_object'])(
    '%s (not a JSON-RPC result): an error result at the call timeout, not a crash',
    async (kind) => {
      const { result, text } = await call('malformed', { kind });
      expect(result?.is_error).toBe(true);
      expect(text).toMatch(/MCP server "bad" did not finish malformed within 2000 ms/);
    },
  );

  it('a result without content reads as no blocks (as the SDK has it), not as an error', async () => {
    const { result, call: record } = await call('malformed', { kind: 'no_content' });
    expect(result?.is_error).toBeUndefined();
    expect(record?.status).toBe('ok');
    expect(record?.data).toEqual({ content: [] });
  });

  it('well-formed results still pass, and the connection serves calls after malformed ones', async () => {
    const echo = await call('echo', { message: 'still here' });
    expect(echo.result?.is_error).toBeUndefined();
    expect(echo.text).toContain('Echo: still here');
    const links = await call('links', {});
    expect(links.text).toContain('[Resource link: readme] test://readme');
    expect(links.text).toContain('[Resource from bad at test://notes] Embedded notes.');
    const image = await call('image', {});
    expect(image.result?.is_error).toBeUndefined();
    expect(s.manager.reports()[0]?.status).toBe('connected');
  });
});

describe('the result check', () => {
  it('accepts every block type of the specification, with members it does not read', () => {
    expect(
      mcpResultProblem({
        content: [
          { type: 'text', text: 'a', annotations: { audience: ['user'] }, _meta: { x: 1 } },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
          { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
          { type: 'resource_link', uri: 'file:///a', name: 'a', description: 'd' },
          { type: 'resource', resource: { uri: 'file:///b', text: 'b' } },
          { type: 'resource', resource: { uri: 'file:///c', blob: 'YWJj', mimeType: 'text/plain' } },
        ],
        isError: false,
        structuredContent: { a: 1 },
        _meta: {},
      }),
    ).toBeUndefined();
  });

  it('names a bad blob and a resource without a uri', () => {
    expect(mcpResultProblem({ content: [{ type: 'resource', resource: { uri: 'x', blob: '*' } }] })).toBe(
      'content[0] (resource) resource "blob" is not base64',
    );
    expect(mcpResultProblem({ content: [{ type: 'resource', resource: { text: 'x' } }] })).toBe(
      'content[0] (resource) resource "uri" is missing, not a string',
    );
    expect(mcpResultProblem({ content: [{ type: 'resource', resource: 'x' }] })).toBe(
      'content[0] (resource) has a "resource" that is a string, not an object',
    );
    expect(mcpResultProblem({ content: [{ text: 'no type' }] })).toBe(
      'content[0] has a "type" that is missing, not a string',
    );
  });

  it('reads base64 as atob does', () => {
    for (const ok of ['', 'YQ==', 'YWI=', 'YWJj', 'YW Jj\n', 'YWI', 'YQ'])
      expect([ok, isBase64(ok)]).toEqual([ok, true]);
    for (const bad of ['Y', 'YQ===', 'Y===', 'YW-j', 'YW_j', '!!!!', 'YQ==YQ=='])
      expect([bad, isBase64(bad)]).toEqual([bad, false]);
    for (const s of ['', 'YQ==', 'YWI=', 'YWJj', 'YW Jj\n', 'YWI', 'YQ', 'Y', 'YQ===', 'YW-j', 'YQ==YQ==']) {
      let atobOk = true;
      try {
        atob(s);
      } catch {
        atobOk = false;
      }
      expect([s, isBase64(s)]).toEqual([s, atobOk]);
    }
  });
});
